"""Engine speed, interpreted and compiled side by side: nodes/s and the depth
reached in a fixed time on midgame positions, and exact endgame solve times
at 12 to 20 empties.

Prints figures only (never asserts a duration). The positions are fixed board
strings taken from engine games, so runs compare like with like. The two
engines run in worker processes (bench/both_engines.py) that take turns, so
the ratios are taken in one run on the same busy machine.

    python bench/search.py                   # everything: about five minutes
    python bench/search.py --empties 12 14   # a quicker endgame look
    python bench/search.py --interpreted-up-to 18   # also time 18 empties interpreted
    python bench/search.py --empties                # midgame only

The midgame runs once per evaluation (--evaluation: handmade, trained or
both): nodes/s, depth, and static evaluations/s, with the time and memory
the trained weights take to load.
"""

import argparse
import statistics
import sys

from both_engines import BothEngines

MIDGAME = [  # 40 empties, Black to move
    "--XXX------XO-----XOOOO---XXOXO---XOOX-O--OOOX------------------ X",
    "-----------O------OO------OOXX----OOXX----OXOX----XOOX---XXXXX-- X",
    "---------------------OX--OOOOX----OOXXX--OOXXX--O--XXX------XXX- X",
    "-----------------OX------OOXX---OOXOOO---XXOOO----XXO----XXXX--- X",
    "------------X----OXXX-----XXX----XOXX----XOXX----OXOO---O--XOO-- X",
    "----------OX------OOXXX-X-OOOOO--XOOOO---XXXXOO----------------- X",
    "-----------------X-XOO---OXOXO----OXXXO--XOXXOO---OOXO---------- X",
    "O-------OO-X-----OXXX----XOXX---OOOOOX--OOO-OO------O----------- X",
]

SELF_PLAY = [  # from the held-out self-play games, 3 each at 50, 46, 36, 32, 28, 26 empties
    "-------------------O------XOO-X--XXOOOO----OX-----O------------- X",
    "---------------------X----OOXXX---XOXX-----OOO------O----------- X",
    "-----------------OOOOX----XOX-----OXXX-----OX------------------- X",
    "X-------XX-------XOO------XOX----OXXO------XXO------XO---------- X",
    "O--------O--------OX----XXOOXXX---OXO-----OOOO------------------ X",
    "--O-------OO-----XOXXX---OOOXX----OOOX------O------------------- X",
    "------------------XXXX----XXXXXX-OOXXOOO--OOXOOO---OXX------XX-- X",
    "------------X----O-XXXX---OXOXOO-XOOXXOO--OOXXOO---OOX---------- X",
    "--OOX-----XXXX----XXOOO-XXXXXO---XXOO-O--XXOO-------O----------- X",
    "--XXXX----OXOX--XXOXO---XXOXO---XXXOOO--XXXXOX----OX------------ X",
    "O-O------OOOX----XOXX----OXOXXX---OXXXX----OXO----XOOO----XOOO-- X",
    "---------------O------OO--XXX-XO--XXXXOO--XOOOOO--OOOOOO--OOOOOO X",
    "----------XOO----XXOOOO--XOXXO-X-OOOOOX---OXXXX---OXX-XX-XXXX--X X",
    "--XOOX-----OOX-O--OOXOOOX-XOXXOO-XXXXXXOOXXXXX---X------X------- X",
    "-----------O-O----OOXXX--OOOXX--OOXXX-X-OOXXXXXX--OOOO---OOOOOO- X",
    "-XXXX-----XOX----XOXO---XXOOO---OXOOOO--XOXOOOOO--OOOO---OOOO--- X",
    "X--XXX--XXXXXX--XXXXXXX-XXXXOXOOXXXXXOO---XXOXO----O------------ X",
    "-XXXXXX-X-XXXXO-XXXXXOOXXXXXOXO-XXXOOOO---OO--X--------X-------- X",
]

ENDGAME = {
    12: [
        "-OOOOOOO--OXXXXOXXXOXOXOXXXXOOXO-OOOOXOOOOXXXXXOOO-X-X-OOO-----O X",
        "-O-X-O--O-OXOO-OOOOOXOXOOOOXXOOOOOXXXOXOOOXXXXOO-XXXXX-O-XXXXX-- X",
        "--XXX-O-O--XXO-OOOXOXOOOOOOXXXOOOOOXXXXOOXXXXXX-O-XXXXX---XXXXXX X",
        "--O------OO-XX--OOOXXX-OOOXOXXXOOXOXXXXOOXXXXXOOOXXOOOOOOOOOOOOO X",
    ],
    14: [
        "--XXXX-O--XXXXOOXXXXXOXOXXXXOOXO-OOOOXOOOOXXXXXOOO-X-X-OOO-----O X",
        "-O-X----O-OXXX-OOOOOXXXOOOOXOXOOOOXOXOXOOOOXXXOO--XXXX-O-XXXXX-- X",
        "--XO--O----OOO-OOXXOXOOOOOOXXXOOOOOXXXXOOXXXXXX-O-XXXXX---XXXXXX X",
        "---------OX-XX--OOOXXX-OOOXOXXXOOXOXOO-OOXXXXXOOOXXOOOOOOOOOOOOO X",
    ],
    16: [
        "--XXXX----XXXX-OXXXXXXOOXXXXXOXO-OOOOXOOOOXXXXXOOO-X-X-OOO-----O X",
        "---X----O-XXX--OOOOOOOXOOOOOOXOOOOXOXOXOOOOXXXOO--XXXX-O-XXXXX-- X",
        "--XO--O----OOO-OOX-OXOOOOOXOXXOOO-OXXXXOOXXXXXX-O-XXXXX---XXXXXX X",
        "---------OX-XX--OOOXXX-OOOXOXXXOOXOXOO-OOXXOOOO-OXXOOOO-OOOOOOOO X",
    ],
    18: [
        "--XXXX----XXXX-OXXXXXXOOXXXXXOXO-OOOOXOOOOXXXXOOOO-X-X--OO------ X",
        "---X----O-XXX--OOOOOOOXOOOOOOXOOOOXOXXOOOOOXXXO---XXXX---XXXXX-- X",
        "------O----OOO-OOX-OOOOOOOXOXOOOO-OXXXXOOXXXXXX-O-XXXXX---XXXXXX X",
        "------------XX--OOOXXX-OOOXXXXXOOXOXOO-OOXXOOOO-OXXOOOO-OOOOOOOO X",
    ],
    20: [  # the midgame positions above played on to 20 empties by a depth-6 search
        "--XXXXX---XXOX--O-XOXOOOOXXXOXOOOXXXXOXOOOOOOOOOO-O--O-O-------- X",
        "---XXXX-X--OX---XXOXXXO-XOOOOOO-XOXXOX--XXOOXOO-X-XXXX---XXXXX-- X",
        "-----XO------X--O-OOOXXXOOOXXXXXO-OXXXXXOOXXXXXXOXXXXXX---O-XXX- X",
        "--------OX--X---OXXXX---OXOXX---OXXOXXX-OXOOOXOOOXXXXOOOOOOOOOOO O",
    ],
}


def ratio(slow: float, fast: float) -> str:
    return f"{slow / fast:5.1f}x" if fast > 0 else "    -"


def load_trained(engines) -> None:
    slow, fast = engines.ask({"kind": "load"})
    if not fast["loaded"]:
        print("trained weights: none could be read (the hand-made evaluation is used)")
        return
    print(
        f"trained weights: {fast['bytes']:,} bytes on disk, loaded in "
        f"{slow['seconds'] * 1000:.0f} | {fast['seconds'] * 1000:.0f} ms, peak "
        f"{fast['peak'] / 1e6:.1f} MB while loading  (interpreted | compiled)"
    )


def static_evaluations(engines, evaluation, repeat=200):
    """Calls per second on the 18- and 20-empty boards."""
    boards = ENDGAME[18] + ENDGAME[20]
    question = {"kind": "static", "evaluation": evaluation, "boards": boards, "repeat": repeat}
    slow, fast = engines.ask(question)
    slow_rate = slow["calls"] / slow["seconds"]
    fast_rate = fast["calls"] / fast["seconds"]
    print(
        f"  static evaluation: {slow_rate:,.0f} | {fast_rate:,.0f} calls/s  "
        f"{ratio(fast_rate, slow_rate)}"
    )
    return fast_rate


def midgame(engines, seconds, evaluation="handmade", boards=MIDGAME):
    empties = 64 - sum(cell != "-" for cell in boards[0][:64])
    print(
        f"midgame, {evaluation} evaluation: iterative deepening, {seconds:g} s on each of "
        f"{len(boards)} positions with {empties} empties  (interpreted | compiled)"
    )
    depths = {"i": [], "c": []}
    nodes = {"i": 0, "c": 0}
    spent = {"i": 0.0, "c": 0.0}
    for number, board in enumerate(boards, 1):
        question = {"kind": "search", "board": board, "seconds": seconds}
        slow, fast = engines.ask({**question, "evaluation": evaluation})
        for key, answer in (("i", slow), ("c", fast)):
            depths[key].append(answer["depth"])
            nodes[key] += answer["nodes"]
            spent[key] += answer["seconds"]
        slow_rate = slow["nodes"] / slow["seconds"]
        fast_rate = fast["nodes"] / fast["seconds"]
        print(
            f"  #{number}: depth {slow['depth']:2d} | {fast['depth']:2d}, "
            f"{slow_rate:9,.0f} | {fast_rate:10,.0f} nodes/s  {ratio(fast_rate, slow_rate)}"
        )
    slow_rate = nodes["i"] / spent["i"]
    fast_rate = nodes["c"] / spent["c"]
    print(
        f"  median depth {statistics.median(depths['i']):g} | "
        f"{statistics.median(depths['c']):g}; overall {slow_rate:,.0f} | {fast_rate:,.0f} "
        f"nodes/s: compiled {ratio(fast_rate, slow_rate).strip()} the interpreted nodes/s"
    )
    return fast_rate


def endgame(engines, empties, interpreted_up_to):
    print("endgame: exact solve (final margin for the side to move)  (interpreted | compiled)")
    for count in empties:
        slow_times, fast_times = [], []
        both = count <= interpreted_up_to
        for number, board in enumerate(ENDGAME[count], 1):
            if both:
                slow, fast = engines.ask({"kind": "solve", "board": board})
                same = (slow["margin"], slow["nodes"]) == (fast["margin"], fast["nodes"])
                assert same, ("the two engines differ", board, slow, fast)
                slow_times.append(slow["seconds"])
                slow_text = f"{slow['seconds']:7.2f} s"
            else:
                fast = engines.compiled.ask({"kind": "solve", "board": board})
                slow_text = "      - "
            fast_times.append(fast["seconds"])
            print(
                f"  {count} empties #{number}: margin {fast['margin']:+3d}, "
                f"{fast['nodes']:10,d} nodes, {slow_text} | {fast['seconds']:7.3f} s"
                + (f"  {ratio(slow['seconds'], fast['seconds'])}" if both else "")
            )
        fast_median = statistics.median(fast_times)
        if both:
            slow_median = statistics.median(slow_times)
            print(
                f"  {count} empties: median {slow_median:.2f} s | {fast_median:.3f} s "
                f"({ratio(slow_median, fast_median).strip()}), "
                f"max {max(slow_times):.2f} s | {max(fast_times):.3f} s"
            )
        else:
            print(
                f"  {count} empties: compiled median {fast_median:.2f} s, max "
                f"{max(fast_times):.2f} s (interpreted skipped: --interpreted-up-to "
                f"{interpreted_up_to})"
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="midgame time per position")
    parser.add_argument(
        "--empties", type=int, nargs="*", default=sorted(ENDGAME), choices=sorted(ENDGAME)
    )
    parser.add_argument(
        "--interpreted-up-to",
        type=int,
        default=16,
        metavar="EMPTIES",
        help="solve with the interpreted engine too up to this many empties (default 16)",
    )
    parser.add_argument("--no-midgame", action="store_true")
    parser.add_argument("--evaluation", choices=("handmade", "trained", "both"), default="both")
    args = parser.parse_args()
    with BothEngines() as engines:
        print(
            f"Python {sys.version.split()[0]}; interpreted: {engines.interpreted.engine}; "
            f"compiled: {engines.compiled.engine}"
        )
        if not args.no_midgame:
            rates = {}
            if args.evaluation != "handmade":
                load_trained(engines)
            for name in ("handmade", "trained"):
                if args.evaluation in (name, "both"):
                    rates[name] = (
                        static_evaluations(engines, name),
                        midgame(engines, args.seconds, name),
                        midgame(engines, args.seconds, name, ENDGAME[20]),
                    )
            if len(rates) == 2:
                hand, trained = rates["handmade"], rates["trained"]
                print(
                    "compiled, trained / hand-made: static evaluations/s "
                    f"{trained[0] / hand[0]:.2f}, nodes/s at 40 empties {trained[1] / hand[1]:.2f}"
                    f", at 20 empties {trained[2] / hand[2]:.2f}"
                )
        if args.empties:
            endgame(engines, args.empties, args.interpreted_up_to)


if __name__ == "__main__":
    main()
