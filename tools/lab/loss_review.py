#!/usr/bin/env python3
"""Where an engine loses a match: depths and times of both sides, how late it saw the
games it lost, and (with --replay) whether more time or the opponent's evaluation finds
what it missed.

    loss_review.py GAMES.pgn --engine NAME [--replay ENGINE OPPONENT] [--seconds S]

GAMES.pgn is a fastchess PGN whose move comments hold `score/depth time` (fastchess writes
them so); NAME is a part of the engine's name in the White and Black tags. The review
reads moves 10 to 40 for the depths and times. A lost game is "seen" by the opponent when
its score first reaches the claim (+1.5 by default) and by the engine when its own score
first falls to minus the claim.

--replay searches again every position of a lost game where the engine, to move just after
the opponent's first claim, still scored itself above -0.5: by ENGINE for S seconds, by
OPPONENT to the engine's depth in the game and for S seconds. If ENGINE with more time still
misses what OPPONENT sees at the same depth, the evaluation is the gap, not the search.
Needs python-chess.
"""

import argparse
import re
import statistics
import sys

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:
    print("loss_review.py: needs python-chess (python3 -m pip install -r tools/requirements.txt)", file=sys.stderr)
    sys.exit(2)

COMMENT = re.compile(r"\s*([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+) ([\d.]+)s")
MATE_PAWNS = 100.0
PIECE_PAWNS = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def parse_comment(comment):
    """(score in pawns for the side that moved, depth, seconds), or None."""
    m = COMMENT.match(comment or "")
    if not m:
        return None
    sign, mate, value, depth, seconds = m.groups()
    score = MATE_PAWNS if mate else float(value)
    return (-score if sign == "-" else score), int(depth), float(seconds)


def non_pawn_material(board):
    """Both sides' knights, bishops, rooks and queens, in pawns (62 at the start)."""
    return sum(len(board.pieces(p, c)) * v for p, v in PIECE_PAWNS.items() for c in chess.COLORS)


class Review:
    """What the games say, gathered one game at a time."""

    def __init__(self, name, claim):
        self.name, self.claim = name, claim
        self.results = {"win": 0, "draw": 0, "loss": 0}
        self.depths = {"engine": [], "opponent": []}
        self.seconds = {"engine": [], "opponent": []}
        self.lags, self.material, self.replies = [], [], []
        self.blind = []  # (fen, the engine's score, its depth) after the opponent's claim

    def add(self, game):
        white = self.name in game.headers.get("White", "")
        if not white and self.name not in game.headers.get("Black", ""):
            return
        result = game.headers.get("Result", "*")
        outcome = {"1-0": "win" if white else "loss", "0-1": "loss" if white else "win"}.get(result, "draw")
        self.results[outcome] += 1
        board = game.board()
        claim_ply = seen_ply = reply = None
        for ply, node in enumerate(game.mainline()):
            side = "engine" if (board.turn == chess.WHITE) == white else "opponent"
            parsed = parse_comment(node.comment)
            if parsed:
                score, depth, seconds = parsed
                if 10 <= board.fullmove_number <= 40:
                    self.depths[side].append(depth)
                    self.seconds[side].append(seconds)
                if side == "opponent" and claim_ply is None and score >= self.claim:
                    claim_ply = ply
                    if outcome == "loss":
                        self.material.append(non_pawn_material(board))
                elif side == "engine" and claim_ply is not None and reply is None:
                    reply = score
                    if outcome == "loss" and score > -0.5:
                        self.blind.append((board.fen(), score, depth))
                if side == "engine" and seen_ply is None and score <= -self.claim:
                    seen_ply = ply
            board.push(node.move)
        if outcome == "loss":
            if reply is not None:
                self.replies.append(reply)
            if claim_ply is not None and seen_ply is not None:
                self.lags.append(seen_ply - claim_ply)

    def report(self):
        games = sum(self.results.values())
        if games == 0:
            print(f"loss_review.py: no game has '{self.name}' in its White or Black tag", file=sys.stderr)
            sys.exit(2)
        points = self.results["win"] + self.results["draw"] / 2
        print(f"{games} games: +{self.results['win']} ={self.results['draw']} -{self.results['loss']}, {100 * points / games:.1f}%")
        for side in ("engine", "opponent"):
            if self.depths[side]:
                print(
                    f"{side}: depth median {statistics.median(self.depths[side])}, mean "
                    f"{statistics.mean(self.depths[side]):.1f}; {statistics.mean(self.seconds[side]):.3f} s a move (moves 10-40)"
                )
        if self.lags:
            print(
                f"lost games where both saw it: {len(self.lags)}; plies from the opponent's +{self.claim} to the "
                f"engine's -{self.claim}: median {statistics.median(self.lags)}, mean {statistics.mean(self.lags):.1f}"
            )
        if self.replies:
            above = sum(r > -0.5 for r in self.replies) / len(self.replies)
            print(
                f"the engine's score just after the opponent's claim, lost games: median "
                f"{statistics.median(self.replies):+.2f}; {above:.0%} still above -0.5"
            )
        if self.material:
            print(f"pieces (knights to queens, in pawns) at the opponent's claim: median {statistics.median(self.material)} of 62")


def score_for(info, turn):
    return info["score"].pov(turn).score(mate_score=int(MATE_PAWNS * 100)) / 100


def replay(positions, engine_path, opponent_path, seconds):
    """Searches each position again and prints how many each search scores at -1 or below."""
    rows = []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine, chess.engine.SimpleEngine.popen_uci(opponent_path) as opponent:
        for e in (engine, opponent):
            e.configure({"Hash": 64, "Threads": 1})
        for fen, in_game, depth in positions:
            board = chess.Board(fen)
            longer = score_for(engine.analyse(board, chess.engine.Limit(time=seconds)), board.turn)
            same_depth = score_for(opponent.analyse(board, chess.engine.Limit(depth=depth)), board.turn)
            opponent_longer = score_for(opponent.analyse(board, chess.engine.Limit(time=seconds)), board.turn)
            rows.append((longer, same_depth, opponent_longer))
            print(
                f"{fen}  in game {in_game:+.2f}/{depth}; engine {seconds:g} s {longer:+.2f}; "
                f"opponent depth {depth} {same_depth:+.2f}, {seconds:g} s {opponent_longer:+.2f}",
                flush=True,
            )
    n = len(rows)
    for i, label in enumerate((f"engine at {seconds:g} s", "opponent at the engine's depth", f"opponent at {seconds:g} s")):
        column = [r[i] for r in rows]
        print(f"{label}: {sum(s <= -1.0 for s in column)}/{n} at -1 or below, median {statistics.median(column):+.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("--engine", required=True, help="a part of the engine's name in the PGN tags")
    parser.add_argument("--claim", type=float, default=1.5, help="the score, in pawns, that counts as seeing a win")
    parser.add_argument("--replay", nargs=2, metavar=("ENGINE", "OPPONENT"), help="the two binaries, to search again")
    parser.add_argument("--seconds", type=float, default=2.0, help="the replay's time a position")
    args = parser.parse_args()
    try:
        games = open(args.pgn, encoding="utf-8", errors="replace")
    except OSError as err:
        print(f"loss_review.py: {args.pgn}: {err.strerror}", file=sys.stderr)
        sys.exit(2)
    review = Review(args.engine, args.claim)
    with games:
        while (game := chess.pgn.read_game(games)) is not None:
            review.add(game)
    review.report()
    if args.replay:
        print(f"{len(review.blind)} positions to search again")
        if review.blind:
            replay(review.blind, *args.replay, args.seconds)


if __name__ == "__main__":
    main()
