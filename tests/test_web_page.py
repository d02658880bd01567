"""The page in a real browser (Debian's chromium, headless, driven by Playwright): it draws
what the state says, zone by zone and lamp by lamp, follows a simulated game live, turns
drags into hand actions, honours the token, and reconnects after a server restart."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

from controller.machine import Controller, Settings
from controller.rules.registry import get_rule_set
from controller.rules.values import Colour
from hal.interfaces import Button
from hal.zones import ZONES, Checker
from simulator.players import Behaviour, GreedyPlayer, RandomPlayer
from simulator.table import Table
from web.actions import Lift, Place, Press, Throw
from web.hub import Hub
from web.session import Publisher
from web.view import StateView
from web_kit import (WAIT, Recorder, browser, dom_lights, dom_zones, page, sample_state, serving,  # noqa: F401
                     wait_until, zone)
from web_person import LiveSession, choose_play, hand_steps

WHITE, BLACK = Checker.WHITE, Checker.BLACK

SNAPSHOTS = """() => document.addEventListener('DOMContentLoaded', () => {
  window.drawnStates = [];
  new MutationObserver(() => {
    const zones = Array.from(document.querySelectorAll('[data-zone]'))
      .sort((a, b) => a.dataset.zone - b.dataset.zone)
      .map(z => z.dataset.unreadable ? null : [Number(z.dataset.white), Number(z.dataset.black)]);
    const lights = Array.from(document.querySelectorAll('[data-light]'))
      .sort((a, b) => a.dataset.light - b.dataset.light)
      .map(l => l.dataset.colour === 'off' ? null : {colour: l.dataset.colour, mode: l.dataset.mode});
    window.drawnStates.push({version: Number(document.body.dataset.version), zones, lights,
                             warning: document.getElementById('warning').textContent,
                             moves: document.querySelectorAll('#moves li').length});
  }).observe(document.body, {attributes: true, attributeFilter: ['data-version']});
})"""
"""Installed before the page's own script: a snapshot of what the page draws after every state."""


class LoggingHub(Hub):
    """A hub that keeps every state it published, by version."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: dict[int, dict[str, Any]] = {}

    def publish(self, state: dict[str, Any]) -> None:
        super().publish(state)
        published = self.state()
        self.log[published["version"]] = published


def open_page(page: Any, url: str) -> None:
    """Open the page and wait for its first state."""
    page.goto(url)
    page.wait_for_function("Number(document.body.dataset.version) > 0", timeout=WAIT * 1000)


def catch_up(page: Any, hub: Hub) -> None:
    """Wait until the page has drawn the hub's newest state."""
    version = hub.state()["version"]
    page.wait_for_function(f"Number(document.body.dataset.version) >= {version}", timeout=WAIT * 1000)


# -- states built by hand -------------------------------------------------------------------------
def lit(**lights: tuple[str, str]) -> list[dict[str, str] | None]:
    """A lights list with ``zone name=(colour, mode)`` lit."""
    out: list[dict[str, str] | None] = [None] * len(ZONES)
    for name, (colour, mode) in lights.items():
        out[zone(name.replace("_", "-"))] = {"colour": colour, "mode": mode}
    return out


def test_the_page_draws_zones_lights_warning_and_facts(page: Any) -> None:
    hub = Hub()
    state = sample_state(
        lights=lit(**{"6": ("source", "steady"), "8": ("source", "steady"), "1": ("warning", "blink"),
                      "wait_white": ("turn", "steady"), "off_black": ("winner", "blink")}),
        warning={"reason": "illegal", "message": "Black moved on White's turn"},
        turns=[{"colour": "white", "dice": [3, 1], "play": "8/5 6/5"}, {"colour": "black", "dice": [6, 4], "play": ""}],
    )
    state["zones"][zone("9")] = None
    state["zones"][zone("wait-white")] = [12, 0]
    state["zones"][zone("7")] = [1, 1]
    hub.publish(state)
    with serving(hub) as server:
        open_page(page, server.url)
        assert dom_zones(page) == hub.state()["zones"]
        assert dom_lights(page) == hub.state()["lights"]
        assert page.locator('[data-zone="24"] circle.checker[data-colour="white"]').count() == 5
        assert page.locator('[data-zone="24"] text.count').text_content() == "12"
        assert page.locator("#warning").inner_text().startswith("⚠ illegal: Black moved")
        assert page.locator("#warning").evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(196, 0, 0)"
        assert page.locator('[data-light="0"]').evaluate("e => getComputedStyle(e).animationName") == "blink"
        assert page.locator('[data-light="5"]').evaluate("e => getComputedStyle(e).animationName") == "none"
        assert page.locator("#dice").inner_text() == "6 5"
        assert page.locator("#message").inner_text() == "White to play 6-5"
        assert page.locator("#moves li").all_inner_texts() == ["White 3-1: 8/5 6/5", "Black 6-4: (no play)"]
        assert page.locator("#pip-white").inner_text() == "167"
        assert page.locator("#xgid").inner_text() == state["xgid"]
        assert page.locator("#position-id").inner_text() == state["position_id"]
        assert page.locator("#copy-xgid").is_visible() and page.locator("#copy-position-id").is_visible()
        assert page.locator('[data-zone="12"] text.own').text_content() == "24"  # line I is White's 24 point
        assert "live" in page.locator("#link").inner_text()
        hub.publish(sample_state(turn="black", warning=None, dice=[2, 1]))
        catch_up(page, hub)
        assert page.locator("#warning").inner_text() == ""
        assert dom_lights(page) == [None] * len(ZONES)
        assert page.locator('[data-zone="12"] text.own').text_content() == "1"  # Black's own points now
        latencies = page.evaluate("window.trictracLatencies")
        assert len(latencies) == 2 and all(-50 < x < 10_000 for x in latencies)


def test_the_cube_is_shown_in_backgammon(page: Any) -> None:
    hub = Hub()
    hub.publish(sample_state(rules="backgammon", cube={"value": 2, "owner": "black", "offered_by": None}))
    with serving(hub) as server:
        open_page(page, server.url)
        assert page.locator("#cube").inner_text() == "2, Black's"
        hub.publish(sample_state(rules="backgammon", phase="cube offered",
                                 cube={"value": 2, "owner": "black", "offered_by": "black"}))
        catch_up(page, hub)
        assert page.locator("#cube").inner_text() == "Black doubles to 4: Done takes, Takeback passes"
        hub.publish(sample_state())
        catch_up(page, hub)
        assert page.locator("#cube").inner_text() == "—"


def test_the_copy_buttons_copy_the_ids(browser: Any) -> None:
    hub = Hub()
    hub.publish(sample_state())
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        tab = context.new_page()
        with serving(hub) as server:
            open_page(tab, server.url)
            tab.click("#copy-position-id")
            assert tab.evaluate("navigator.clipboard.readText()") == hub.state()["position_id"]
            tab.click("#copy-xgid")
            assert tab.evaluate("navigator.clipboard.readText()") == hub.state()["xgid"]
    finally:
        context.close()


def test_the_records_are_listed_with_their_links(page: Any, tmp_path: Path) -> None:
    (tmp_path / "2026-11-30-001-trictrac.mat").write_text(" 1 point match\n", encoding="utf-8")
    hub = Hub()
    hub.publish(sample_state())
    with serving(hub, records=tmp_path) as server:
        open_page(page, server.url)
        link = page.locator("#records a")
        link.wait_for(timeout=WAIT * 1000)
        assert link.get_attribute("href") == "/api/records/2026-11-30-001-trictrac.mat"
        (tmp_path / "2026-11-30-002-trictrac.mat").write_text(" 1 point match\n", encoding="utf-8")
        hub.publish(sample_state(phase="game over"))  # each game over lists the records again
        page.wait_for_function("document.querySelectorAll('#records a').length === 2", timeout=WAIT * 1000)


def drag(page: Any, source: Any, target: Any) -> None:
    """Press on ``source``, move over ``target`` and let go, as a mouse would."""
    a, b = source.bounding_box(), target.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=4)
    page.mouse.up()


def checker(page: Any, name: str, colour: str) -> Any:
    """The top checker of ``colour`` the page draws on zone ``name``."""
    return page.locator(f'[data-zone="{zone(name)}"] circle.checker[data-colour="{colour}"]').last


def hit_area(page: Any, name: str) -> Any:
    return page.locator(f'[data-zone="{zone(name)}"] rect.hit')


def test_drags_and_buttons_become_hand_actions(page: Any) -> None:
    sink = Recorder()
    hub = Hub(sink, ("white",))
    hub.publish(sample_state(phase="await roll", dice=[]))
    with serving(hub) as server:
        open_page(page, server.url)
        page.wait_for_function("!document.getElementById('throw').disabled", timeout=WAIT * 1000)
        drag(page, checker(page, "6", "white"), hit_area(page, "1"))
        drag(page, checker(page, "1", "black"), hit_area(page, "wait-black"))  # a hitter carries the blot
        source = checker(page, "8", "white").bounding_box()
        page.mouse.move(source["x"] + 10, source["y"] + 10)
        page.mouse.down()
        page.mouse.move(1270, 850, steps=3)  # let go beside the board: back where it came from
        page.mouse.up()
        page.click("#throw")
        page.click("#done")
        page.click("#takeback")
        page.click("#menu")
        wait_until(lambda: len(sink.actions) == 10, what="ten actions")
        hub.publish(sample_state(phase="moving"))
        catch_up(page, hub)
        assert page.locator("#throw").is_disabled() and page.locator("#done").is_enabled()
    w, b = WHITE, BLACK
    assert sink.actions == [Lift("6", w), Place("1", w), Lift("1", b), Place("wait-black", b), Lift("8", w), Place("8", w),
                            Throw(), Press(Button.DONE), Press(Button.TAKEBACK), Press(Button.MENU)]


def test_the_token_decides_who_plays(browser: Any) -> None:
    sink = Recorder()
    hub = Hub(sink, ("white",))
    hub.publish(sample_state(phase="await roll", dice=[]))
    with serving(hub, token="s3cret", host="127.0.0.1") as server:
        for url, plays in ((server.url, False), (server.url + "?token=wrong", False), (server.url + "?token=s3cret", True)):
            context = browser.new_context()
            try:
                tab = context.new_page()
                open_page(tab, url)
                time.sleep(0.2)  # the hello is in
                assert tab.locator("#throw").is_disabled() is not plays
                assert ("Watching only" in tab.locator("#mode").inner_text()) is not plays
                drag(tab, checker(tab, "6", "white"), hit_area(tab, "2"))
                tab.evaluate("document.getElementById('throw').disabled = false")
                tab.click("#throw")  # even forced, the server refuses a watcher
                if plays:
                    wait_until(lambda: len(sink.actions) == 3, what="the drag and the throw")
                else:
                    tab.wait_for_function("document.getElementById('notice').textContent.includes('token')",
                                          timeout=WAIT * 1000)
                    assert sink.actions == []
                assert dom_zones(tab) == hub.state()["zones"]  # watching is open to all
            finally:
                context.close()
    assert sink.actions == [Lift("6", WHITE), Place("2", WHITE), Throw()]


def test_the_page_reconnects_by_itself_after_a_restart(page: Any) -> None:
    hub = Hub()
    hub.publish(sample_state())
    with serving(hub) as server:
        port = server.port
        open_page(page, server.url)
    page.wait_for_function("document.getElementById('link').textContent.includes('reconnecting')", timeout=WAIT * 1000)
    hub.publish(sample_state(dice=[4, 2], message="after the restart"))
    with serving(hub, port=port):
        catch_up(page, hub)
        assert page.locator("#message").inner_text() == "after the restart"
        assert "live" in page.locator("#link").inner_text()
        hub.publish(sample_state(dice=[1, 1]))
        catch_up(page, hub)
        assert page.locator("#dice").inner_text() == "1 1"


# -- real games ---------------------------------------------------------------------------------
def test_a_watched_game_is_drawn_as_published_at_every_state(browser: Any) -> None:
    controller = Controller(Settings(get_rule_set("trictrac"), match_length=1))
    hub = LoggingHub()
    holder: dict[str, Table] = {}
    publish = Publisher(hub, StateView(controller, {"white": "greedy", "black": "random"}),
                        hand=lambda: holder["t"].sim.board.hand)
    table = holder["t"] = Table(controller.settings, seed=3, players=(GreedyPlayer(), RandomPlayer()),
                                behaviour=Behaviour(illegal_rate=0.3), controller=controller, observer=publish, pace=40.0)
    publish()
    context = browser.new_context()
    context.add_init_script(script=f"({SNAPSHOTS})()")
    try:
        tab = context.new_page()
        with serving(hub) as server:
            open_page(tab, server.url)
            game = threading.Thread(target=table.play_match, daemon=True)
            game.start()
            game.join(240)
            assert not game.is_alive(), "the game did not end in 240 s"
            catch_up(tab, hub)
            drawn = tab.evaluate("window.drawnStates")
            latencies = tab.evaluate("window.trictracLatencies")
    finally:
        context.close()
    assert controller.match.winner() is not None
    assert len(drawn) > 100, len(drawn)
    for snapshot in drawn:
        state = hub.log[snapshot["version"]]
        assert snapshot["zones"] == state["zones"], snapshot["version"]
        assert snapshot["lights"] == state["lights"], snapshot["version"]
        assert bool(snapshot["warning"]) == (state["warning"] is not None), snapshot["version"]
        assert snapshot["moves"] == len(state["turns"])
    assert any(s["warning"] for s in drawn), "no warning drawn in a game with illegal attempts"
    assert any(s["lights"] != [None] * len(ZONES) for s in drawn)
    assert drawn[-1]["version"] == max(hub.log)
    assert len(latencies) >= 10 and all(x >= -50 for x in latencies)  # measured (not judged) by benchmarks/web_latency.py


def test_a_whole_game_played_by_dragging_in_the_page_is_recorded(page: Any, tmp_path: Path) -> None:
    session = LiveSession("trictrac", {Colour.WHITE}, tmp_path, seed=11, speed=15.0,
                          players={"white": "web", "black": "greedy"})
    session.thread.start()
    plays = 0
    try:
        with serving(session.hub, records=session.records) as server:
            open_page(page, server.url)
            plays = play_in_page(page, session.hub, session.controller, lambda: not session.thread.is_alive())
            catch_up(page, session.hub)
            page.wait_for_function("document.querySelectorAll('#records a').length === 1", timeout=WAIT * 1000)
            assert dom_zones(page) == session.hub.state()["zones"]
    finally:
        session.close()
    assert session.over(), session.controller.message
    assert plays > 5 and not session.errors and not session.warnings, (
        plays, session.errors, [w.frame.message for w in session.warnings])
    assert session.recorded_as_played()


def play_in_page(page: Any, hub: Hub, controller: Controller, over: Any, deadline: float = 300.0) -> int:
    """Play White in the page: throw with #throw, drag every checker of a random legal play
    (the hit blot to the bar first), press #done; returns the plays made."""
    rng = random.Random(7)
    geometry = controller.reader.geometry
    done: tuple[Any, ...] | None = None
    plays = 0
    end = time.monotonic() + deadline
    while not over():
        assert time.monotonic() < end, "the game in the page did not end in time"
        time.sleep(0.05)
        state = hub.state()
        key = (state["phase"], state["turn"], tuple(state["dice"]), len(state["turns"]), state["score"]["game"])
        if key == done or state["turn"] not in ("white", None):
            continue
        if state["phase"] == "opening":
            page.click("#throw")
            time.sleep(0.5)
        elif state["phase"] == "await roll":
            done = key
            page.click("#throw")
        elif state["phase"] == "moving":
            done = key
            chosen = choose_play(state, rng)
            if chosen is not None:
                colour, play = chosen
                for move in play:
                    steps = hand_steps(geometry, colour, move)
                    for (_, frm, who), (_, to, _) in zip(steps[::2], steps[1::2]):
                        source = checker(page, frm, who.value)
                        source.wait_for(timeout=WAIT * 1000)
                        before = hub.state()["zones"][zone(to)]
                        drag(page, source, hit_area(page, to))
                        put_down(hub, to, who, before)
                plays += 1
            catch_up(page, hub)
            page.click("#done")
    return plays


def put_down(hub: Hub, name: str, who: Checker, before: list[int] | None) -> None:
    """Wait until the board reads more checkers of ``who`` on ``name`` than ``before`` and
    none in a hand."""
    side = 0 if who is WHITE else 1

    def down() -> bool:
        state = hub.state()
        now = state["zones"][zone(name)]
        more = before is None or (now is not None and now[side] > before[side])
        return more and state["hand"] == {"white": 0, "black": 0}

    wait_until(down, what=f"a {who.value} checker down on {name}")


DRAWN_COMPUTER = """() => ({
    computer: document.getElementById("computer").innerText,
    message: document.getElementById("message").innerText,
    engine: document.querySelectorAll('[data-light][data-colour="engine"]').length,
})"""


def test_against_the_computer_the_page_shows_its_play_in_cyan_and_the_hints(page: Any, tmp_path: Path) -> None:
    """White plays in the page against the built-in engine (Black, its checkers moved by the
    live table's hand from the lights): Menu lists the hints with equities, the computer's
    play is named and lit in the engine's colour, and the turns are recorded as played."""
    from controller.engine import Engine

    engine = Engine(get_rule_set("trictrac"))
    session = LiveSession("trictrac", {Colour.WHITE}, tmp_path, seed=5, speed=15.0,
                          players={"white": "web", "black": "greedy"}, computer={Colour.BLACK: engine}, hints=engine)
    session.thread.start()
    rng = random.Random(3)
    geometry = session.controller.reader.geometry
    seen_computer = seen_hint = seen_lit = 0
    handled: tuple[Any, ...] | None = None
    try:
        with serving(session.hub, records=session.records) as server:
            open_page(page, server.url)
            end = time.monotonic() + 120
            while seen_computer < 2 or seen_hint < 2 or seen_lit < 1:
                assert time.monotonic() < end, (seen_computer, seen_hint, session.hub.state()["message"])
                time.sleep(0.05)
                state = session.hub.state()
                key = (state["phase"], state["turn"], tuple(state["dice"]), len(state["turns"]))
                if state["computer_play"] and key != handled:
                    handled = key
                    catch_up(page, session.hub)
                    # one look at the page: the hand keeps moving, so lights and message are read together
                    drawn = page.evaluate(DRAWN_COMPUTER)
                    if not drawn["computer"] and "plays" not in drawn["message"]:
                        continue  # its play ended (and was done) before the page was looked at
                    assert drawn["computer"] == f"The computer plays {state['computer_play']}: carry it out as lit"
                    if not any(word in drawn["message"] for word in ("done", "hit!")):  # a hit lights the way to the bar
                        assert drawn["engine"] >= 1, drawn
                        seen_lit += 1
                    assert "builtin:best (the computer" in page.locator("#players").inner_text()
                    seen_computer += 1
                if key == handled or state["turn"] not in ("white", None):
                    continue
                if state["phase"] == "opening":  # equal throws: throw again
                    page.click("#throw")
                    time.sleep(0.5)
                elif state["phase"] == "await roll":
                    handled = key
                    page.click("#throw")
                elif state["phase"] == "moving":
                    handled = key
                    page.click("#menu")
                    page.wait_for_function("document.querySelectorAll('#hints li').length > 0", timeout=WAIT * 1000)
                    hints = session.hub.state()["hints"]
                    assert page.locator("#hints li").all_inner_texts()[0] == f"{hints[0]['play']} ({hints[0]['equity']:+.3f})"
                    assert page.locator('[data-light][data-colour="engine"]').count() == 2  # from and to of its first move
                    seen_hint += 1
                    chosen = choose_play(state, rng)
                    if chosen is not None:
                        colour, play = chosen
                        for move in play:
                            steps = hand_steps(geometry, colour, move)
                            for (_, frm, who), (_, to, _) in zip(steps[::2], steps[1::2]):
                                source = checker(page, frm, who.value)
                                source.wait_for(timeout=WAIT * 1000)
                                before = session.hub.state()["zones"][zone(to)]
                                drag(page, source, hit_area(page, to))
                                put_down(session.hub, to, who, before)
                    catch_up(page, session.hub)
                    page.click("#done")
    finally:
        session.close()
    assert not session.errors and not session.warnings, (session.errors, [w.frame.message for w in session.warnings])
    for turn in session.controller.game.turns():  # every computer turn is the engine's play
        if turn.colour is Colour.BLACK and turn.play:
            assert get_rule_set("trictrac").apply(turn.before, engine.choose(turn.before, turn.roll)) == turn.after
