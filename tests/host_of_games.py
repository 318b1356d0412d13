"""A process hosting several games, as the launcher's host mode does: the test's stand-in.

Run as `python host_of_games.py SPEC.json`, with each game's pty slave open
(pass_fds). SPEC is a list of games, each {"argv", "env", "cwd", "tty"}. It
preloads as the launcher does, then runs each as a HostedGame in a thread of
its own. A line `signal I N` on standard input passes signal N to game I, and
`modules` prints `LATE [...]`: the modules imported since the preload. Each
game's end is printed as `EXIT I STATUS`. The process exits once every game
has ended.
"""

import gc
import json
import sys
import threading
from pathlib import Path

from tui_reversi import launcher


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text())
    gc.disable()
    launcher.preload()
    gc.freeze()
    gc.enable()
    preloaded = set(sys.modules)
    from tui_reversi.hosted_game import HostedGame

    games = [HostedGame(game["argv"], game["env"], game["cwd"], game["tty"]) for game in spec]
    said = threading.Lock()

    def run(index: int, game: HostedGame) -> None:
        status = game.run()
        with said:
            print(f"EXIT {index} {status}", flush=True)

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(games)]
    for thread in threads:
        thread.start()

    def listen() -> None:
        for line in sys.stdin:
            words = line.split()
            if len(words) == 3 and words[0] == "signal":
                games[int(words[1])].signal(int(words[2]))
            elif words == ["modules"]:
                with said:
                    print("LATE " + json.dumps(sorted(set(sys.modules) - preloaded)), flush=True)

    threading.Thread(target=listen, daemon=True).start()
    for thread in threads:
        thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
