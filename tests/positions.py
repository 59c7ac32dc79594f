"""Fixed positions (§3 notation) the tests, the benchmark and the screenshot script share."""

# A round one move from the win: `2` picks up the ace, `1` puts it on the two and wins.
NEARLY_WON = """\
suits: 1
deal: 77
moves: 150
stock: -
done: s s s s s s s
1: | Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s
2: | As
3: |
4: |
5: |
6: |
7: |
8: |
9: |
10: |
"""

# A column too long for 80x24: its middle is compressed into one "more" line.
LONG = """\
suits: 1
stock: -
1: 5s 6s 7s 8s 9s | Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ks Qs Js Ts 9s 8s 7s 6s 4s
2: | Ks
3: | Ks
4: | Ks
5: | Ks
6: |
7: |
8: |
9: |
10: |
"""
