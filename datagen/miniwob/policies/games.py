"""Oracle policies for the game-like tasks: tic-tac-toe against the page's player, and buying a
stock once its price (which the page updates) falls below a limit.

Tic-tac-toe is won only by a win (a draw scores -0.5). The page's player starts in 49% of the
games, moves at random 55% of the time and otherwise completes its own line or blocks X's;
``best_move`` plays the move with the highest chance to win against exactly that player, read
from the board the page shows. Even so about 15% of the games are lost or drawn
(``win_chance``: 0.849 over the page's openings), so the task cannot reach 95%."""

from __future__ import annotations

from functools import cache

from playwright.async_api import TimeoutError as PlaywrightTimeout

from datagen.miniwob.policies.base import PolicyError, after, click, css, field

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
RANDOM_MOVES = 0.55  # how often the page's player moves at random (else: win, block, random)
PRICE_WAIT_MS = 30_000
PRICE_MARGIN = 2.0  # dollars below the limit worth waiting for ...
MARGIN_WAIT_MS = 1_500  # ... this long


async def tic_tac_toe(page, episode):
    """Play X: each turn, the move with the best chance to win against the page's player."""
    for _ in range(5):
        board = await page.evaluate(
            "() => Array.from({length: 9}, (_, i) => { const c = document.querySelector("
            "`#ttt-${i}`).className; return c.includes('mark-x') ? 'X' : c.includes('mark-o') ?"
            " 'O' : '.'; }).join('')")
        if _winner(board) or "." not in board:
            return
        yield click(css(f"#ttt-{best_move(board)}"))
    raise PolicyError(f"{episode.task}: the game did not end in five moves")


def best_move(board: str) -> int:
    """X's move with the highest win probability (ties: a move that wins at once, then the
    lowest square)."""
    free = [i for i, c in enumerate(board) if c == "."]

    def value(i: int) -> tuple[float, bool, int]:
        after = board[:i] + "X" + board[i + 1:]
        return _after_x(after), _winner(after) == "X", -i

    return max(free, key=value)


@cache
def _after_x(board: str) -> float:
    """Win probability for X once X has moved, with O to move as the page plays."""
    if _winner(board) == "X":
        return 1.0
    free = [i for i, c in enumerate(board) if c == "."]
    if not free:
        return 0.0
    smart = _smart_moves(board, free)
    chance = 0.0
    for i in free:
        weight = RANDOM_MOVES / len(free) + (1 - RANDOM_MOVES) * smart.get(i, 0.0)
        if weight:
            chance += weight * win_chance(board[:i] + "O" + board[i + 1:])
    return chance


@cache
def win_chance(board: str) -> float:
    """Win probability for X to move on ``board`` with best play against the page's player."""
    if _winner(board) == "O":
        return 0.0
    free = [i for i, c in enumerate(board) if c == "."]
    if not free:
        return 0.0
    return max(_after_x(board[:i] + "X" + board[i + 1:]) for i in free)


def _smart_moves(board: str, free: list[int]) -> dict[int, float]:
    """O's non-random move: complete its own line, else block X's, else any free square."""
    for mark in ("O", "X"):
        for line in LINES:
            marks = [board[i] for i in line]
            if marks.count(mark) == 2 and marks.count(".") == 1:
                return {line[marks.index(".")]: 1.0}
    return {i: 1 / len(free) for i in free}


def _winner(board: str) -> str | None:
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


async def stock_market(page, episode):
    """Wait (reading the price the page shows) until it is below the limit, then buy. The price
    moves every 100 ms by up to $1.50 and the recorder captures the page before the click, so
    the policy waits a little longer for a price clearly below the limit when one comes."""
    limit = float(field(episode, "target"))
    after(episode.utterance, r"^Buy \S+ stock when the price is less than \$")
    await _price_below(page, limit, PRICE_WAIT_MS)
    try:
        await _price_below(page, limit - PRICE_MARGIN, MARGIN_WAIT_MS)
    except PlaywrightTimeout:
        await _price_below(page, limit, PRICE_WAIT_MS)
    yield click(css("#buy"))


async def _price_below(page, limit: float, timeout_ms: int) -> None:
    await page.wait_for_function(
        "(limit) => { const p = parseFloat((document.querySelector('#stock-price')"
        ".textContent || '').replace('$', '')); return p < limit; }", arg=limit,
        timeout=timeout_ms)


POLICIES = {
    "tic-tac-toe": tic_tac_toe,
    "stock-market": stock_market,
}
