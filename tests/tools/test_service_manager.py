"""`serve` under systemd's `Type=notify`: told through a socket the test binds as systemd would."""

import os
import socket
import uuid

import pytest

from tui_reversi.server.edge.service_manager import ServiceManager

from .conftest import PATIENCE


@pytest.fixture
def notify_socket():
    """A datagram socket in the abstract namespace, as systemd's, and its $NOTIFY_SOCKET name."""
    name = f"tui-reversi-test-notify-{uuid.uuid4().hex}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind("\0" + name)
    listener.settimeout(PATIENCE)
    yield listener, "@" + name
    listener.close()


def heard(listener: socket.socket) -> dict[str, str]:
    message = listener.recv(4096).decode()
    return dict(line.split("=", 1) for line in message.splitlines())


def test_serve_says_ready_once_listening_feeds_the_watchdog_and_says_it_stops(
    server, notify_socket
):
    listener, address = notify_socket
    running = server(env={"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "200000"})
    ready = heard(listener)
    assert ready["READY"] == "1"
    assert ready["MAINPID"] == str(running.process.pid)
    assert ready["STATUS"] == f"listening on 127.0.0.1:{running.port}"
    # Ready means listening: a player can connect the moment systemd hears it.
    socket.create_connection(("127.0.0.1", running.port), timeout=PATIENCE).close()
    for _ in range(3):
        assert heard(listener) == {"WATCHDOG": "1"}
    status, _ = running.stop()
    assert status == 0
    said = [heard(listener)]
    while "STOPPING" not in said[-1]:
        said.append(heard(listener))
    assert said[-1]["STOPPING"] == "1"


def test_without_a_notify_socket_nothing_is_said_and_no_watchdog_runs():
    manager = ServiceManager.from_environment({"WATCHDOG_USEC": "200000"})
    assert manager.address is None
    manager.say("READY=1")  # goes nowhere, raises nothing


def test_a_watchdog_meant_for_another_process_is_not_fed():
    environment = {"NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"}
    assert ServiceManager.from_environment(environment).watchdog_seconds is None
    environment["WATCHDOG_PID"] = str(os.getpid())
    assert ServiceManager.from_environment(environment).watchdog_seconds == 0.2
