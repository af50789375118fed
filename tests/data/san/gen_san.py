# Random xiangqi games with Fairy-Stockfish (pyffish) SAN: uci (ranks 1-10) and san per line.
import random, sys, pyffish as sf
random.seed(13)
f = sf.start_fen('xiangqi')
out = []
for g in range(int(sys.argv[1])):
    moves = []
    for ply in range(random.randint(20, 120)):
        legal = sf.legal_moves('xiangqi', f, moves)
        if not legal: break
        moves.append(random.choice(legal))
    san = sf.get_san_moves('xiangqi', f, moves, False, sf.NOTATION_SAN)
    out.append(' '.join(moves) + '\t' + ' '.join(san))
print('\n'.join(out))
