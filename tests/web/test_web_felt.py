"""The table around the felt (issue 23): its ten bugs, its motion, sound and drag and drop, and its gates.

Most tests here script the table's WebSocket (Playwright's ``route_web_socket``): the page is the real one, served
by a real ``xeri serve``, but the server's messages are written out here, so a table with three xeris, a match
over or a round dialog is there in one message, the same every run. That keeps the visual baselines stable and
the module quick; the play against a real server stays in test_web.py and test_web_play.py.

Visual regression: screenshots of the lobby, a 2- and a 4-player table mid-round and the round dialog at four
sizes are compared with the committed baselines in tests/web/visual/ at a tolerance. ``XERI_UPDATE_SNAPSHOTS=1``
writes the baselines anew (after a deliberate change to the look: look at them before committing).
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Browser, BrowserContext, Page

from support.browser import ARTIFACTS, Console, Server, new_page
from support.table_script import (
    SIZES,
    box,
    capture_update,
    felt_page,
    open_table,
    opponent_update,
    round_record,
    sync,
    table,
    view,
)

VISUAL = Path(__file__).resolve().parent / "visual"
UPDATE = os.environ.get("XERI_UPDATE_SNAPSHOTS") == "1"
# A pixel differs when a channel moves by more than this; a screenshot passes with at most TOLERANCE of them.
PIXEL_DELTA = 40
TOLERANCE = 0.01


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


# ---- the ten bugs of issue 23; each test fails on the page before it ----

def test_bug1_each_card_shows_its_own_number(server: Server, browser: Browser, contexts: list[BrowserContext],
                                             console: Console) -> None:
    page = felt_page(browser, contexts, console)
    open_table(page, server, sync(2))
    cards = [box(page, f".hand .card-btn:nth-child({i + 1}) .card") for i in range(4)]
    caps = [box(page, f".hand .card-btn:nth-child({i + 1}) .keycap") for i in range(4)]
    for card, cap in zip(cards, caps, strict=True):
        centre = cap["x"] + cap["width"] / 2
        assert card["x"] <= centre <= card["x"] + card["width"], (card, cap)  # under its own card
        assert cap["y"] + cap["height"] <= 800, cap
    assert len({round(c["x"]) for c in caps}) == 4, caps


def test_bug2_your_own_dealer_mark_is_shown(server: Server, browser: Browser, contexts: list[BrowserContext],
                                            console: Console) -> None:
    page = felt_page(browser, contexts, console)
    open_table(page, server, sync(2, dealer=0))
    assert page.locator(".me .dealer-mark").is_visible()
    assert page.locator(".seat-box .dealer-mark").count() == 0  # only the dealer has it


# The colours a card button is framed with: its outline and the box shadows and drop shadows of it and its card.
FRAME = """el => {
  const out = new Set();
  for (const node of [el, el.querySelector('.card'), el.querySelector('.card-svg')]) {
    if (!node) continue;
    const cs = getComputedStyle(node);
    if (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) out.add(cs.outlineColor);
    for (const prop of [cs.boxShadow, cs.filter])
      for (const m of (prop || '').matchAll(/rgba?\\([^)]*\\)/g)) out.add(m[0]);
  }
  return [...out].filter(c => !/rgba\\(0, 0, 0/.test(c));
}"""


def test_bug3_the_hint_does_not_look_like_the_focus_ring(server: Server, browser: Browser,
                                                         contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console)
    script = open_table(page, server, sync(2))
    script.send({"type": "hint", "card": "QC", "code": "lead", "params": {}})
    page.wait_for_selector(".card-btn.hinted")
    page.locator(".hand .card-btn").first.focus()
    page.keyboard.press("ArrowRight")  # a keyboard focus: the focus ring shows
    focused = page.locator(".hand .card-btn:focus")
    assert focused.get_attribute("data-card") == "7S"
    ring = set(focused.evaluate(FRAME))
    hint = set(page.locator(".card-btn.hinted").evaluate(FRAME))
    assert ring and hint and not ring & hint, (ring, hint)
    # After a reload nothing is hinted: the focused first card wears the focus ring only.
    page.reload()
    page.wait_for_selector(".hand .card-btn")
    assert page.locator(".card-btn.hinted").count() == 0


def test_bug4_at_the_end_of_the_match_the_focus_goes_to_what_comes_next(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console)
    over = sync(2, hand=[], legal_moves=[], pile=[], top=None, turn=None, over=True, match_over=True, winner=0,
                match_scores=[15, 4], round_wins=[1, 0], hand_counts=[0, 0], talon_count=0)
    over["history"] = [round_record()]
    open_table(page, server, over)
    page.wait_for_selector("#match-dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector("#match-dialog", state="detached")
    active = page.evaluate("(() => { const a = document.activeElement; return [a.tagName, a.className,"
                           " Boolean(a.closest('.hand')), a.getBoundingClientRect().width]; })()")
    assert active[0] in ("BUTTON", "A") and not active[2], active
    assert page.locator(".hand").count() == 0  # no empty hand to hold a stray focus box


def test_bug5_every_computer_seat_has_its_own_name(server: Server, browser: Browser, contexts: list[BrowserContext],
                                                   console: Console) -> None:
    page = felt_page(browser, contexts, console, "390x844")
    open_table(page, server, sync(4))
    names = page.locator(".seat-box .seat-name").all_inner_texts()
    seats = [page.locator(f".seat-box[data-seat='{s}']").get_attribute("aria-label") for s in (1, 2, 3)]
    assert len(set(seats)) == 3, seats
    chips = page.locator(".score-chip").all_inner_texts()
    assert len(set(chips)) == 2, chips
    for chip in page.locator(".score-chip").all():
        title = chip.get_attribute("title") or ""
        left, _, right = title.partition(" & ")
        assert left != right, title
    tag = page.locator(".partner-tag")
    assert tag.count() == 1, names
    assert tag.evaluate("el => el.scrollWidth <= el.clientWidth + 1")  # the tag is whole, not "(part…"


# Each score chip's parts: is the chip's content wider than the chip, and does its score end inside the chips' row?
CHIPS_WHOLE = """() => { const row = document.querySelector('.scorebar .chips').getBoundingClientRect();
  return [...document.querySelectorAll('.score-chip')].map(c => [c.innerText, c.scrollWidth > c.clientWidth + 1,
    c.querySelector('.chip-score').getBoundingClientRect().right <= row.right + 1]); }"""


def test_bug6_phone_landscape_shows_the_hand_without_scrolling(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    for players in (2, 3, 4):
        page = felt_page(browser, contexts, console, "844x390")
        open_table(page, server, sync(players, points=[11, 1, 0][:2 if players == 4 else players]))
        for card in page.locator(".hand .card-btn").all():
            b = card.bounding_box()
            assert b is not None and b["y"] >= 0 and b["y"] + b["height"] <= 390, (players, b)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 844
        # The score bar in one line, every chip whole: its score and this round's points never cut off, in short
        # words ("Us: 0 won · 0 pts +11"), with the full words in its title.
        # With 3 players, three chips may not all fit beside the tools: their row scrolls (it is focusable).
        chips = page.evaluate(CHIPS_WHOLE)
        assert all(not clipped and (inside or players == 3) for _, clipped, inside in chips), (players, chips)
        tools, row = box(page, ".scorebar .tools"), box(page, ".scorebar .chips")
        assert abs(tools["y"] - row["y"]) < 4, (tools, row)
        mine = page.locator(".score-chip.mine").inner_text().replace("\n", "")
        assert mine.startswith("Us: " if players == 4 else "You: ") and mine.endswith("+11"), mine
        assert "rounds won" in (page.locator(".score-chip.mine").get_attribute("title") or "")
        assert page.locator(".scorebar .rounds-btn").inner_text() == "Rounds"


def test_bug7_several_xeris_on_a_stack_each_read(server: Server, browser: Browser, contexts: list[BrowserContext],
                                                 console: Console) -> None:
    page = felt_page(browser, contexts, console)
    xeris = [["6H", False], ["QS", False], ["JD", True]]
    open_table(page, server, sync(2, xeris=[xeris, []], captured_counts=[14, 4]))
    crosswise = [box(page, f".me .captured .crosswise:nth-of-type({i + 2})") for i in range(3)]
    steps = [b["y"] - a["y"] for a, b in itertools.pairwise(crosswise)]
    assert all(s >= 12 for s in steps), steps  # each one's corner shows beneath the next
    assert "3 xeris" in page.inner_text(".me .captured-count")
    stack = box(page, ".me .captured .stack")
    for b in crosswise:  # on the stack, not spilling onto the hand
        assert stack["y"] - 2 <= b["y"] and b["y"] + b["height"] <= stack["y"] + stack["height"] + 2, (b, stack)
    for card in page.locator(".hand .card-btn").all():
        cb = card.bounding_box()
        assert cb is not None and not any(overlap(b, cb) for b in crosswise)


@pytest.mark.parametrize("players", [3, 4])
def test_bug11_xeris_at_a_side_seat_stay_inside_it_on_a_phone(server: Server, browser: Browser,
                                                              contexts: list[BrowserContext], console: Console,
                                                              players: int) -> None:
    # A CI run saw the 3-player phone table 383 px wide at 375: "30 cards · 2 xeris" beside the stack of the seat
    # on the right, wider than the seat, stuck out past the screen (and its stack out over the pile).
    sides = 2 if players == 4 else players
    xeris = [["6H", False], ["JD", True]]
    page = new_page(browser, contexts, console, viewport={"width": 375, "height": 667}, is_mobile=True,
                    has_touch=True)
    open_table(page, server, sync(players, xeris=[xeris] * sides, captured_counts=[30] * sides))
    stacks = page.locator(".seat-box .captured").count()
    assert stacks >= 1 and page.locator(".seat-box .xeri-count").count() == stacks
    for seat in page.locator(".seat-west, .seat-east").all():
        outer = seat.bounding_box()
        assert outer is not None
        for part in seat.locator(".captured, .captured .stack, .captured-count").all():
            b = part.bounding_box()
            assert b is not None, part
            inside = outer["x"] - 0.5 <= b["x"] and b["x"] + b["width"] <= outer["x"] + outer["width"] + 0.5
            assert inside, (seat.get_attribute("class"), part.get_attribute("class"), b, outer)
        # On its own line, without the " · ".
        assert all(x == "2 xeris" for x in seat.locator(".xeri-count").all_inner_texts())
    assert page.locator(".seat-west .xeri-count, .seat-east .xeri-count").count() >= 1
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 375


# Each control whose words do not fit it (scrolled or clipped), each pair of the top bar's or the tools' neighbours on
# one row that overlap, and each tool past the screen's right edge.
CRAMPED = """() => {
  const out = [];
  const clipped = e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
  for (const e of document.querySelectorAll('.nav a, .account-btn, .scorebar .tools button, .seat-box .name-text'))
    if (clipped(e)) out.push(`clipped: ${e.className || e.id} "${e.textContent}"`);
  for (const sel of ['.topbar > :not(.brand)', '.scorebar .tools button']) {
    const row = [...document.querySelectorAll(sel)].map(e => [e, e.getBoundingClientRect()]);
    row.forEach(([e, r], i) => {
      if (r.right > innerWidth + 0.5) out.push(`off the screen: ${e.className} "${e.textContent}"`);
      const [f, n] = row[i + 1] || [];
      if (n && Math.abs(n.top - r.top) < 2 && r.right > n.left + 0.5)
        out.push(`overlap: "${e.textContent}" and "${f.textContent}"`);
    });
  }
  return out;
}"""


@pytest.mark.parametrize("players", [3, 4])
def test_bug12_a_narrow_phone_shows_every_word_of_the_bar_and_the_seats(server: Server, browser: Browser,
                                                                        contexts: list[BrowserContext],
                                                                        console: Console, players: int) -> None:
    # On a 375 px phone in Greek the top bar's links ran into each other, the tools (six at a table against the
    # computer, with Take back) squeezed their words over the next tool's, and both side seats read "Υπολογι…".
    tbl = table(players)
    tbl["takebacks"] = True
    names = ["Maria"] + [None] * (players - 1)
    for lang in ("el", "tr", "en"):
        page = new_page(browser, contexts, console, viewport={"width": 360, "height": 640}, is_mobile=True,
                        has_touch=True)
        open_table(page, server, sync(players, tbl, names=names), prefs={"lang": lang, "seenAid": False})
        assert page.locator(".scorebar .tools button").count() == 6
        assert page.evaluate(CRAMPED) == [], lang
        hand = page.locator(".hand .card-btn").last.bounding_box()  # a second row of tools leaves it in view
        assert hand is not None and hand["y"] + hand["height"] <= 640, (lang, hand)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 360, lang


def test_bug13_a_phone_on_its_side_scrolls_the_score_chips_the_tools_leave_no_room_for(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    # At 844x390 in Greek with six tools, 3 players' chips need 588 px of the row's 337: the last was cut, and the
    # row (overflow hidden) did not move under a finger or a wheel.
    tbl = table(3)
    tbl["takebacks"] = True
    page = felt_page(browser, contexts, console, "844x390")
    open_table(page, server, sync(3, tbl, names=["Maria", None, None]), prefs={"lang": "el", "seenAid": False})
    row = page.locator(".scorebar .chips")
    assert page.evaluate("(c => c.scrollWidth > c.clientWidth)(document.querySelector('.scorebar .chips'))")
    row.hover()
    page.mouse.wheel(600, 0)
    page.wait_for_function("document.querySelector('.scorebar .chips').scrollLeft > 0")
    last = page.locator(".score-chip").last
    page.wait_for_function("""() => { const r = document.querySelector('.scorebar .chips').getBoundingClientRect();
      const s = [...document.querySelectorAll('.score-chip .chip-score')].pop().getBoundingClientRect();
      return s.right <= r.right + 1 && s.left >= r.left - 1; }""")
    assert last.locator(".chip-score").inner_text().startswith(":")


TOOLS = """() => [...document.querySelectorAll('.scorebar .tools button, .scorebar .tools a')]
  .map(b => { const r = b.getBoundingClientRect(); return [b.className, Math.round(r.x), Math.round(r.y)]; })"""


@pytest.mark.parametrize("size", ["1280x800", "390x844"])
def test_bug8_nothing_jumps_when_points_or_the_breakdown_appear(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console, size: str) -> None:
    page = felt_page(browser, contexts, console, size)
    names = ("Maria Papadopoulou",)
    script = open_table(page, server, sync(4, table(4, names=names), points=[0, 0]))
    hint = box(page, ".hint-btn")
    felt_top = box(page, ".board").get("y")
    before = [b for b in page.evaluate(TOOLS) if "rounds-btn" not in b[0]]
    script.send({"type": "update", "version": 11, "events": [], "history": [round_record()],
                 "view": view(4, round_number=2, points=[13, 2], match_scores=[15, 4], round_wins=[1, 0])})
    page.wait_for_selector(".round-points")
    page.wait_for_selector(".rounds-btn:not([disabled])")
    after = page.evaluate(TOOLS)
    assert [b for b in after if "rounds-btn" not in b[0]] == before, (before, after)
    assert len({y for _, _, y in after}) == 1, after  # one line of tools
    assert box(page, ".hint-btn") == hint and box(page, ".board")["y"] == felt_top
    # The empty talon's slot is the pile's: the same size, at the same height.
    script.send({"type": "update", "version": 12, "events": [],
                 "view": view(4, round_number=2, talon_count=0, pile=[], top=None)})
    page.wait_for_selector(".pile-count:text('Pile: 0')")
    talon, pile = box(page, ".talon .empty-slot"), box(page, ".pile .empty-slot")
    assert abs(talon["width"] - pile["width"]) < 1 and abs(talon["height"] - pile["height"]) < 1, (talon, pile)
    assert abs(talon["y"] - pile["y"]) < 1, (talon, pile)


def test_bug9_no_hint_is_asked_while_a_move_is_in_flight(server: Server, browser: Browser,
                                                         contexts: list[BrowserContext], console: Console) -> None:
    """The stale state: the board said "Your turn" (and offered Hint) between sending a card and its answer."""
    page = felt_page(browser, contexts, console, "390x844")
    script = open_table(page, server, sync(2))
    # Tap a card: the scripted server does not answer yet, as a slow phone network would not.
    status, disabled = page.evaluate("""() => {
        document.querySelector('.hand .card-btn[data-card="7S"]').click();
        return [document.querySelector('.me .status').textContent, document.querySelector('.hint-btn').disabled];
    }""")
    assert status != "Your turn" and disabled, (status, disabled)
    page.keyboard.press("h")
    page.wait_for_function("document.querySelector('.hand.my-turn') === null")
    assert [m["type"] for m in script.sent] == ["move"], script.sent


def test_bug10_the_not_sent_notice_does_not_cover_the_hand(server: Server, browser: Browser,
                                                           contexts: list[BrowserContext], console: Console) -> None:
    for size in ("1280x800", "390x844"):
        page = felt_page(browser, contexts, console, size)
        console.allowed = ("WebSocket connection to",)
        script = open_table(page, server, sync(2))
        script.refuse = True
        script.routes[-1].close(code=1011)
        page.wait_for_selector("#banner:not([hidden])")
        page.evaluate("document.querySelector('.hand .card-btn[data-card=\"7S\"]').click()")
        page.wait_for_selector("#toast:not([hidden])")
        assert page.inner_text("#toast").startswith("Your move was not sent")
        toast = box(page, "#toast")
        for card in page.locator(".hand .card-btn").all():
            b = card.bounding_box()
            assert b is not None and not overlap(toast, b), (size, toast, b)


# ---- motion, sound, drag and drop, the Leave dialog, the panels ----


MOTION = {"motion": "normal", "sound": True}
RECORD_LONG_TASKS = """
window.__long = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); })
  .observe({type: 'longtask', buffered: true});
"""


# Each AudioContext the page makes: when, and whether any card was moving then.
RECORD_AUDIO = """
window.__audio = [];
const Made = window.AudioContext;
window.AudioContext = class extends Made {
  constructor(...args) {
    super(...args);
    window.__audio.push([performance.now(), Boolean(document.querySelector('[data-moving], .fx .card'))]);
  }
};
"""
# The capture's long tasks with sound off; with sound on, the gesture (which starts the audio output) before it;
# and with sound on and the page's first gesture falling in the middle of the flight.
# The mid-flight case runs before the other with sound: its AudioContext is the browser's first, the costly one.
SOUND_CASES = {"sound_off": ("web-capture-long-tasks.json", False),
               "sound_on_gesture_mid_flight": ("web-capture-long-tasks-sound-mid.json", True),
               "sound_on": ("web-capture-long-tasks-sound.json", True)}


@pytest.mark.parametrize("case", list(SOUND_CASES))
def test_a_capture_sweeps_the_pile_without_long_tasks(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console, case: str) -> None:
    """The page's own work during a capture, with sound off and with sound on (the Web Audio path): the audio
    output started by a gesture before the capture, or by the page's first gesture, made while the cards fly."""
    artifact, with_sound = SOUND_CASES[case]
    mid = case == "sound_on_gesture_mid_flight"
    page = felt_page(browser, contexts, console, motion=True)
    page.add_init_script(RECORD_LONG_TASKS)
    page.add_init_script(RECORD_AUDIO)
    script = open_table(page, server, sync(2, hand=["3D", "7S", "9H", "TC"], legal_moves=["3D", "7S", "9H", "TC"]),
                        prefs={**MOTION, "sound": with_sound})
    gesture = page.evaluate("performance.now()")
    if not mid:
        page.click("body")  # a gesture: with sound on, the audio output starts now, before any card flies
    if with_sound and not mid:
        assert page.evaluate("import('/static/js/lib/sound.js').then(m => m.ready())")  # the context is running
    sent = page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => {"
                         " window.__flying = null; new MutationObserver((_, obs) => { window.__flying ="
                         " performance.now(); obs.disconnect(); }).observe(document.getElementById('fx'),"
                         " {childList: true}); r(performance.now()); })))")
    # The moment the last card has landed: the table's `data-moving` mark goes.
    page.evaluate("""() => { const root = document.querySelector('.table-view'); window.__still = null;
        new MutationObserver((_, obs) => { if (root.dataset.moving === undefined) { window.__still = performance.now();
          obs.disconnect(); } }).observe(root, {attributes: true, attributeFilter: ['data-moving']}); }""")
    script.send(capture_update())
    page.wait_for_selector(".fx .card")  # the played card flies, then the pile sweeps
    start = page.evaluate("window.__flying")
    if mid:
        # The page's first gesture, on the talon (where a click does nothing), while the card is in the air.
        talon = box(page, ".talon-slot")
        gesture = page.evaluate("performance.now()")
        page.mouse.click(talon["x"] + talon["width"] / 2, talon["y"] + talon["height"] / 2)
    flown = page.evaluate("""() => new Promise(resolve => {
        let most = 0;
        const tick = () => {
          most = Math.max(most, document.querySelectorAll('.fx .card').length);
          if (document.querySelector('.table-view[data-moving]')) requestAnimationFrame(tick); else resolve(most);
        };
        tick();
    })""")
    end = page.evaluate("window.__still")
    assert flown >= 5, flown  # the whole pile swept, not one card
    # The tasks that run during the animation (from the first card in flight to the last landing); and, for the
    # record, those from the message on, which adds the task that draws the board and launches the first flight.
    longest, drawn = page.evaluate(f"""[[{start}, {end}], [{sent}, {end}]].map(([a, b]) => Math.max(0,
        ...window.__long.filter(([t, d]) => t + d >= a && t <= b && (a === {sent} || t >= a)).map(([, d]) => d)))""")
    sounds = page.evaluate("import('/static/js/lib/sound.js').then(m => [...m.played])")
    # Sound on: the capture's two sounds were asked for (the Web Audio path ran); off: none at all.
    assert sounds == (["play", "capture"] if with_sound else []), sounds
    if mid:
        page.wait_for_function("window.__audio.length > 0")
    audio = page.evaluate("window.__audio")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / artifact).write_text(json.dumps(
        {"case": case, "sound": with_sound, "animation_ms": end - start, "longest_task_ms": longest,
         "with_the_draw_ms": drawn, "cards_in_flight": flown, "gesture_at_ms": gesture, "message_at_ms": sent,
         "flying_at_ms": start, "end_at_ms": end, "audio_context_at_ms": [at for at, _ in audio],
         "long_tasks": page.evaluate("window.__long")}))
    print(f"capture animation ({case}): {end - start:.0f} ms, longest task {longest:.0f} ms "
          f"({drawn:.0f} ms counting the draw), {flown} cards in flight")
    # The audio output starts on a gesture once no card moves (its first start is a long task: a gesture in the
    # middle of a flight starts it once the cards have landed), never from a sound, and then it runs.
    assert len(audio) == (1 if with_sound else 0), audio
    assert not any(moving for _, moving in audio), audio
    if with_sound:
        assert page.evaluate("import('/static/js/lib/sound.js').then(m => m.ready())")
    # The 50 ms gate is a timing gate: it runs alone, off the parallel suite whose other browsers starve this one
    # (benchmarks/web_gates.py sets XERI_LONG_TASK_GATE_MS). Here the figure is recorded above.
    gate = float(os.environ.get("XERI_LONG_TASK_GATE_MS", "0"))
    if gate:
        assert longest < gate, (longest, page.evaluate("window.__long"), start, end)
    assert page.locator(".captured[data-side='0'] .captured-count").inner_text().startswith("14 cards")


def test_moves_during_an_animation_are_drawn_after_it_in_order(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console, motion=True)
    script = open_table(page, server, sync(2, hand=["3D", "7S", "9H", "TC"], legal_moves=["3D", "7S", "9H", "TC"]),
                        prefs=MOTION)
    page.evaluate("""() => { window.__piles = [];
        new MutationObserver(() => { const p = document.querySelector('.pile-count');
          if (p && window.__piles[window.__piles.length - 1] !== p.textContent) window.__piles.push(p.textContent); })
          .observe(document.getElementById('view'), {childList: true, subtree: true}); }""")
    script.send(capture_update())
    script.send(opponent_update())
    page.wait_for_selector(".pile .top-card[data-card='4D']")
    page.wait_for_selector(".table-view:not([data-moving])")
    # In a real table's order (issue 39): the 10♣ flies over the pile of 5, lands on it (6), the pile is swept (0),
    # then the 4♦ flies and lands (1).
    assert page.evaluate("window.__piles") == ["Pile: 5", "Pile: 6", "Pile: 0", "Pile: 1"]
    log = page.evaluate("[...document.querySelectorAll('#live p')].map(p => p.textContent)")
    assert log[-2].startswith("Maria plays 10♣ and takes") and log[-1].startswith("Computer 2 plays 4♦"), log


def test_nothing_moves_over_a_dialog_and_reduced_motion_moves_nothing(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console, motion=True)
    script = open_table(page, server, sync(2, turn=1, legal_moves=[]), prefs=MOTION)
    page.click(".leave-btn")
    page.wait_for_selector("#leave-dialog")
    page.evaluate("window.__flew = 0; new MutationObserver(() => { window.__flew += "
                  "document.querySelectorAll('.fx .card').length; }).observe(document.getElementById('fx'),"
                  " {childList: true})")
    script.send(opponent_update())
    page.wait_for_selector(".pile .top-card[data-card='4D']")
    assert page.evaluate("window.__flew") == 0
    page.keyboard.press("Escape")
    # The system's reduced motion: the same move is drawn at once, with no card in flight.
    calm = felt_page(browser, contexts, console)
    script = open_table(calm, server, sync(2, turn=1, legal_moves=[]), prefs=MOTION)
    calm.evaluate("window.__flew = 0; new MutationObserver(() => { window.__flew += 1; })"
                  ".observe(document.getElementById('fx'), {childList: true})")
    script.send(opponent_update())
    calm.wait_for_selector(".pile .top-card[data-card='4D']")
    assert calm.evaluate("window.__flew") == 0


def test_a_xeri_has_a_banner_flying_points_and_its_sound(server: Server, browser: Browser,
                                                         contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console, motion=True)
    script = open_table(page, server, sync(2, pile=["TH"], top="TH", hand=["TC", "3D"], legal_moves=["TC", "3D"]),
                        prefs=MOTION)
    page.click("body")
    update = capture_update()
    update["events"] = [{"kind": "played", "seat": 0, "card": "TC"},
                        {"kind": "captured", "seat": 0, "cards": ["TH", "TC"], "hidden_count": 0, "leftover": False},
                        {"kind": "xeri", "seat": 0, "card": "TC", "jack": False, "points": 10}]
    script.send(update)
    page.wait_for_selector(".fly-points:text('+10')")
    page.wait_for_selector("#toast:not([hidden]):not(.small)")
    assert "Xeri!" in page.inner_text("#toast")
    page.wait_for_function("document.querySelectorAll('.fly-points').length === 0")
    sounds = page.evaluate("import('/static/js/lib/sound.js').then(m => [...m.played])")
    assert sounds[-3:] == ["play", "capture", "xeri"], sounds
    assert page.evaluate("import('/static/js/lib/sound.js').then(m => m.ready())")  # made, after the gesture
    # Off in the settings: no sound at all.
    page.evaluate("import('/static/js/lib/prefs.js').then(m => m.prefs.set('sound', false))")
    script.send(opponent_update(12))
    page.wait_for_selector(".pile .top-card[data-card='4D']")
    assert page.evaluate("import('/static/js/lib/sound.js').then(m => m.played.length)") == len(sounds)


DEAL_WATCH = """window.__flew = 0; window.__dealing = 0;
new MutationObserver(list => {
  for (const m of list) window.__flew += m.addedNodes.length;
  window.__dealing = Math.max(window.__dealing, document.querySelectorAll('.hand .card-btn.dealing').length);
}).observe(document.getElementById('fx'), {childList: true});"""


def test_the_deal_flies_round_the_table_and_a_turn_a_round_and_a_match_each_sound(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console, motion=True)
    script = open_table(page, server, sync(2, hand=[], legal_moves=[], turn=None, hand_counts=[0, 0], talon_count=8),
                        prefs=MOTION)
    page.click("body")  # a gesture: the page may make sound from now on
    page.evaluate(DEAL_WATCH)
    dealt = {"kind": "dealt", "dealer": 1, "hands": [["3D", "7S", "9H", "QC"], None], "sizes": [4, 4], "pile": [],
             "talon": 0, "first": False, "face_down": []}
    script.send({"type": "update", "version": 11, "events": [dealt],
                 "view": view(2, talon_count=0, hand_counts=[4, 4])})
    page.wait_for_function("window.__flew >= 8 && !document.querySelector('[data-moving]')")
    # A back for each card dealt, the hand's cards hidden until theirs lands, then all of them shown.
    assert page.evaluate("window.__flew") == 8
    assert page.evaluate("window.__dealing") == 4
    assert page.locator(".hand .card-btn.dealing").count() == 0
    assert page.locator(".hand .card-btn").count() == 4
    # The page's own list of the sounds it made, the live array, for wait_for_function to read.
    page.evaluate("import('/static/js/lib/sound.js').then(m => { window.__played = m.played; })")
    played = "[...window.__played]"
    assert page.evaluate(played)[-1:] == ["turn"]  # dealt, and it is this page's turn: one call
    assert page.evaluate("import('/static/js/lib/sound.js').then(m => m.ready())")
    # The round's end, then the match's: each has its own sound.
    over = view(2, hand=[], legal_moves=[], pile=[], top=None, turn=None, over=True, talon_count=0, hand_counts=[0, 0],
                match_scores=[15, 4], round_wins=[1, 0], captured_counts=[28, 24])
    script.send({"type": "update", "version": 40, "history": [round_record()], "view": over,
                 "events": [{"kind": "round_scored", "scores": round_record()["scores"]}]})
    page.wait_for_selector("#round-dialog")
    page.wait_for_function("window.__played.at(-1) === 'round'")
    page.click("#round-dialog .actions button.primary")  # what comes next is drawn once the dialog is closed
    script.send({"type": "update", "version": 41, "history": [round_record()],
                 "view": {**over, "match_over": True, "winner": 0},
                 "events": [{"kind": "match_over", "winner": 0, "scores": [15, 4]}]})
    page.wait_for_function("window.__played.at(-1) === 'match'")
    assert page.evaluate(played)[-2:] == ["round", "match"]


def test_drag_a_card_onto_the_pile_and_leave_asks_in_the_page(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console)
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(f"browser dialog: {d.message}")))
    script = open_table(page, server, sync(2))
    card, pile = box(page, ".hand .card-btn[data-card='9H']"), box(page, ".pile")
    page.mouse.move(card["x"] + card["width"] / 2, card["y"] + card["height"] / 2)
    page.mouse.down()
    page.mouse.move(card["x"] + 40, card["y"] - 60, steps=4)
    assert page.locator(".fx .drag-ghost").count() == 1
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=6)
    page.mouse.up()
    page.wait_for_function("document.querySelector('.fx .drag-ghost') === null")
    assert script.sent == [{"type": "move", "card": "9H", "version": 10}], script.sent
    # A drag dropped off the pile plays nothing.
    script.send({"type": "update", "version": 11, "events": [], "view": view(2)})
    page.wait_for_selector(".hand.my-turn")
    card = box(page, ".hand .card-btn[data-card='3D']")
    page.mouse.move(card["x"] + 10, card["y"] + 10)
    page.mouse.down()
    page.mouse.move(card["x"] + 200, card["y"] + 20, steps=5)
    page.mouse.up()
    assert len(script.sent) == 1
    # Leave asks in the page's own dialog; Stay keeps the seat.
    page.click(".leave-btn")
    page.wait_for_selector("#leave-dialog .leave-confirm")
    page.click("#leave-dialog .leave-cancel")
    page.wait_for_selector("#leave-dialog", state="detached")
    assert "#/t/" in page.url


def test_panels_are_remembered_and_fairness_is_a_disclosure(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console)
    open_table(page, server, sync(2), prefs={"logOpen": False, "seenAid": True})
    assert page.locator(".move-log").count() == 0 and page.locator(".seen-panel").is_visible()
    page.click(".log-btn")
    page.click(".seen-btn")
    page.wait_for_selector(".move-log")
    assert page.locator(".seen-panel").count() == 0
    page.reload()
    page.wait_for_selector(".move-log")
    assert page.locator(".seen-panel").count() == 0
    fair = page.locator("details.fairness-box")
    assert fair.locator("summary").inner_text() == "Fairness" and not fair.locator(".commitment").is_visible()
    fair.locator("summary").click()
    assert "abab" in fair.locator(".commitment").inner_text()


# ---- the visual baselines ----

def compare(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    got = ARTIFACTS / f"visual-{name}.png"
    page.screenshot(path=str(got), animations="disabled", caret="hide")
    want = VISUAL / f"{name}.png"
    if UPDATE or not want.exists():
        assert UPDATE, f"no baseline {want}: run with XERI_UPDATE_SNAPSHOTS=1 and look at it before committing"
        VISUAL.mkdir(exist_ok=True)
        # 255 colours: a third of the bytes, and well inside the tolerance (about 0.1% of the pixels move).
        Image.open(got).convert("RGB").quantize(colors=255, dither=Image.Dither.NONE).save(want, optimize=True)
        return
    a, b = Image.open(want).convert("RGB"), Image.open(got).convert("RGB")
    assert a.size == b.size, (name, a.size, b.size)
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > PIXEL_DELTA else 0)
    share = diff.histogram()[255] / (a.size[0] * a.size[1])
    if share > TOLERANCE:
        diff.save(ARTIFACTS / f"visual-{name}-diff.png")
    assert share <= TOLERANCE, f"{name}: {share:.2%} of the pixels differ from {want} (see test-artifacts/)"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_look_matches_the_baselines(server: Server, browser: Browser, contexts: list[BrowserContext],
                                        console: Console, size: str) -> None:
    page = felt_page(browser, contexts, console, size)
    page.goto(server.url + "/")
    page.wait_for_selector(".open-tables:not([aria-busy])")  # the list drawn: the panel's height is its own
    page.evaluate("document.activeElement && document.activeElement.blur()")
    compare(page, f"lobby-{size}")
    for players in (2, 4):
        p = felt_page(browser, contexts, console, size)
        open_table(p, server, sync(players, dealer=players - 1), prefs={"seenAid": False})
        p.evaluate("document.activeElement && document.activeElement.blur()")
        compare(p, f"table-{players}p-{size}")
    p = felt_page(browser, contexts, console, size)
    script = open_table(p, server, sync(2), prefs={"seenAid": False})
    script.send({"type": "update", "version": 40, "history": [round_record()],
                 "events": [{"kind": "round_scored", "scores": round_record()["scores"]}],
                 "view": view(2, hand=[], legal_moves=[], pile=[], top=None, turn=None, over=True, talon_count=0,
                              hand_counts=[0, 0], match_scores=[15, 4], round_wins=[1, 0], captured_counts=[28, 24])})
    p.wait_for_selector("#round-dialog .fairness[data-ok='true']", state="attached")  # folded below the headline
    compare(p, f"round-dialog-{size}")
