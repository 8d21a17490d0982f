package checks

import (
	"strings"
	"unicode/utf8"
)

// RFC 3492 §5: the Bootstring parameters of Punycode.
const (
	punyBase        = 36
	punyTMin        = 1
	punyTMax        = 26
	punySkew        = 38
	punyDamp        = 700
	punyInitialBias = 72
	punyInitialN    = 128
)

// idnaLabel converts a host name label with non-ASCII characters to its ASCII
// form "xn--" + Punycode (RFC 3490 ToASCII, RFC 3492), after lower-casing it
// (host names are case-insensitive, and IDNA maps upper case to lower).
// It is not a full IDNA implementation (no NFC normalisation, no mapping or
// bidi rules): good enough to offer as a fix, which the checks verify.
func idnaLabel(label string) (string, bool) {
	if !utf8.ValidString(label) {
		return "", false
	}
	p, ok := punycode(strings.ToLower(label))
	if !ok {
		return "", false
	}
	return "xn--" + p, true
}

// punycode encodes s by RFC 3492 §6.3.
func punycode(s string) (string, bool) {
	runes := []rune(s)
	var out []byte
	for _, r := range runes {
		if r < 0x80 {
			out = append(out, byte(r))
		}
	}
	b := len(out)
	h := b
	if b > 0 {
		out = append(out, '-')
	}
	n, delta, bias := rune(punyInitialN), 0, punyInitialBias
	const maxDelta = 1 << 30
	for h < len(runes) {
		m := rune(utf8.MaxRune + 1)
		for _, r := range runes {
			if r >= n && r < m {
				m = r
			}
		}
		if int(m-n) > (maxDelta-delta)/(h+1) {
			return "", false // overflow
		}
		delta += int(m-n) * (h + 1)
		n = m
		for _, r := range runes {
			if r < n {
				delta++
				if delta > maxDelta {
					return "", false
				}
			}
			if r != n {
				continue
			}
			q := delta
			for k := punyBase; ; k += punyBase {
				t := k - bias
				if t < punyTMin {
					t = punyTMin
				} else if t > punyTMax {
					t = punyTMax
				}
				if q < t {
					break
				}
				out = append(out, punyDigit(t+(q-t)%(punyBase-t)))
				q = (q - t) / (punyBase - t)
			}
			out = append(out, punyDigit(q))
			bias = punyAdapt(delta, h+1, h == b)
			delta = 0
			h++
		}
		delta++
		n++
	}
	return string(out), true
}

func punyDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

// punyAdapt is RFC 3492 §6.1's bias adaptation.
func punyAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= punyDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((punyBase-punyTMin)*punyTMax)/2 {
		delta /= punyBase - punyTMin
		k += punyBase
	}
	return k + (punyBase-punyTMin+1)*delta/(delta+punySkew)
}
