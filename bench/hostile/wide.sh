#!/bin/sh
# Wide and tricky characters: emoji (incl. ZWJ sequences, flags, variation selectors), CJK,
# combining marks, zero-width characters and tabs, in lines longer than any pane.
i=0
while [ $i -lt ${WIDE_LINES:-300} ]; do
	printf '%d\t汉字漢字かなカナ한국어\t🙂🚀🔥 wide 全角ＡＢＣ\n' $i
	printf 'family 👨‍👩‍👧‍👦 flag 🇯🇵🇩🇪 vs16 ❤️ ☺︎ keycap 1️⃣ combining e\314\201e\314\201 zwsp[\342\200\213] rtl \327\251\327\234\327\225\327\235\n'
	printf '\t\t\ttabs\tbetween\twords\t漢\t🙂\tend-%d %s\n' $i "$(printf '中文字符很宽%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20)"
	i=$((i+1))
done
sleep "${WIDE_SLEEP:-0}"
