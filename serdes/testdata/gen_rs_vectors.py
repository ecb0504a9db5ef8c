#!/usr/bin/env python3
"""Independent RS(544,514) reference used to make rs544_vectors.txt.

Written from scratch in plain Python and sharing no code or tables with the
Go package: field products by shift-and-xor, the generator as an explicit
product of (x - alpha^i), encoding by polynomial long division, decoding by
the Sugiyama (extended Euclid) key-equation solver with brute-force root
search. Run once; its output is committed:

    python3 gen_rs_vectors.py > rs544_vectors.txt

Conventions (as in IEEE 802.3 clause 91/119): GF(2^10) with the field
polynomial x^10 + x^3 + 1, generator roots alpha^0 .. alpha^29, codeword
index 0 is the first symbol sent and the coefficient of x^543, message
first, parity last.
"""

import random

M = 10
POLY = 0x409
N, K = 544, 514
P = N - K
T = P // 2
SEED = 20261129


def gf_mul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & (1 << M):
            a ^= POLY
    return r


def gf_pow(a, e):
    e %= (1 << M) - 1
    r = 1
    while e:
        if e & 1:
            r = gf_mul(r, a)
        a = gf_mul(a, a)
        e >>= 1
    return r


def gf_inv(a):
    assert a != 0
    return gf_pow(a, (1 << M) - 2)


ALPHA = 2

# Polynomials below are lists of coefficients, highest degree first.


def poly_mul(p, q):
    r = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                r[i + j] ^= gf_mul(a, b)
    return r


def poly_divmod(num, den):
    num = list(num)
    quot = []
    lead_inv = gf_inv(den[0])
    while len(num) >= len(den):
        c = gf_mul(num[0], lead_inv)
        quot.append(c)
        for j in range(len(den)):
            num[j] ^= gf_mul(c, den[j])
        num.pop(0)
    return quot, num


def poly_eval(p, x):
    r = 0
    for c in p:
        r = gf_mul(r, x) ^ c
    return r


def strip(p):
    i = 0
    while i < len(p) - 1 and p[i] == 0:
        i += 1
    return p[i:]


def generator():
    g = [1]
    for i in range(P):
        g = poly_mul(g, [1, gf_pow(ALPHA, i)])
    return g


GEN = generator()


def encode(msg):
    _, rem = poly_divmod(list(msg) + [0] * P, GEN)
    rem = [0] * (P - len(rem)) + rem
    return list(msg) + rem


def syndromes(r):
    return [poly_eval(r, gf_pow(ALPHA, i)) for i in range(P)]


def decode(r):
    """Returns ('clean'|'ok'|'fail', word)."""
    s = syndromes(r)
    if not any(s):
        return "clean", list(r)
    # S(x) = sum S_i x^i, highest degree first.
    sx = strip(list(reversed(s)))
    # Sugiyama: Euclid on x^2t and S(x) until deg(remainder) < t.
    r_prev, r_cur = [1] + [0] * P, sx
    t_prev, t_cur = [0], [1]
    while len(strip(r_cur)) - 1 >= T and any(r_cur):
        q, rem = poly_divmod(strip(r_prev), strip(r_cur))
        r_prev, r_cur = r_cur, strip(rem) if rem else [0]
        qt = poly_mul(q, t_cur)
        width = max(len(qt), len(t_prev))
        qt = [0] * (width - len(qt)) + qt
        tp = [0] * (width - len(t_prev)) + t_prev
        t_prev, t_cur = t_cur, strip([a ^ b for a, b in zip(qt, tp)])
    lam = strip(t_cur)
    omega = strip(r_cur)
    deg = len(lam) - 1
    if deg < 1 or deg > T or lam[-1] == 0:
        return "fail", list(r)
    # normalise Lambda(0) = 1
    c = gf_inv(lam[-1])
    lam = [gf_mul(c, v) for v in lam]
    omega = [gf_mul(c, v) for v in omega]
    # brute-force roots over the n positions
    pos = []
    for j in range(N):
        p = N - 1 - j
        if poly_eval(lam, gf_pow(ALPHA, -p)) == 0:
            pos.append(j)
    if len(pos) != deg:
        return "fail", list(r)
    # formal derivative of Lambda (highest first)
    d = len(lam) - 1
    dlam = []
    for i, v in enumerate(lam[:-1]):
        power = d - i
        dlam.append(v if power % 2 == 1 else 0)
    out = list(r)
    for j in pos:
        p = N - 1 - j
        xinv = gf_pow(ALPHA, -p)
        num = poly_eval(omega, xinv)
        den = poly_eval(dlam, xinv)
        if den == 0:
            return "fail", list(r)
        e = gf_mul(gf_pow(ALPHA, p), gf_mul(num, gf_inv(den)))
        out[j] ^= e
    if any(syndromes(out)):
        return "fail", list(r)
    return "ok", out


def hexs(v):
    return " ".join("%03x" % x for x in v)


def corrupt(rng, cw, nerr, burst):
    rx = list(cw)
    if burst:
        start = rng.randrange(N - nerr + 1)
        positions = list(range(start, start + nerr))
    else:
        positions = rng.sample(range(N), nerr)
    for j in positions:
        rx[j] ^= rng.randrange(1, 1 << M)
    return rx


def main():
    rng = random.Random(SEED)
    print("# RS(544,514) over GF(2^10), made by gen_rs_vectors.py (seed %d)" % SEED)
    print("# symbols are 3-digit hex; index 0 is the first symbol sent (x^543)")
    print("# expect: clean|ok|fail|miscorrect, then the decoder's output word")
    print("field_poly 0x%03x" % POLY)
    print("code %d %d" % (N, K))
    print("gen_ascending " + hexs(list(reversed(GEN))))
    cases = []
    for e in [0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15, 15, 15]:
        cases.append((e, False, "random"))
    for e in [1, 8, 15, 15]:
        cases.append((e, True, "random"))
    cases.append((0, False, "zeros"))
    cases.append((15, False, "zeros"))
    cases.append((0, False, "ones"))
    cases.append((15, True, "ones"))
    for e in [16, 16, 17, 20, 30, 60]:
        cases.append((e, False, "random"))
    for idx, (e, burst, kind) in enumerate(cases):
        if kind == "zeros":
            msg = [0] * K
        elif kind == "ones":
            msg = [(1 << M) - 1] * K
        else:
            msg = [rng.randrange(1 << M) for _ in range(K)]
        cw = encode(msg)
        assert not any(syndromes(cw))
        rx = corrupt(rng, cw, e, burst)
        status, out = decode(rx)
        if status == "ok" and out != cw:
            status = "miscorrect"
        if e <= T:
            assert out == cw, (idx, e, status)
        print("vector %d errors %d %s %s" % (idx, e, "burst" if burst else "scattered", kind))
        print("msg " + hexs(msg))
        print("cw " + hexs(cw))
        print("rx " + hexs(rx))
        print("expect %s %s" % (status, hexs(out)))


if __name__ == "__main__":
    main()
