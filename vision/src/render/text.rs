//! Lettering: the 8x8 bitmap font of `font8x8`, with a transliteration for the letters of
//! Polish and Hungarian names it lacks, sampled smoothly at any size.

use font8x8::{UnicodeFonts, BASIC_FONTS, LATIN_FONTS};

/// How a line of text looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Font {
    /// Glyph width as a fraction of its height (1.0: the square 8x8 cell).
    pub width: f32,
    /// Horizontal shear of an italic (0: upright).
    pub italic: f32,
    /// Stroke widening in font pixels (0: regular, about 0.7: bold).
    pub bold: f32,
    /// Blocky nearest-pixel glyphs instead of smooth ones.
    pub pixel: bool,
    /// Capitals only.
    pub upper: bool,
}

impl Font {
    /// A plain smooth font.
    pub const PLAIN: Font = Font {
        width: 1.0,
        italic: 0.0,
        bold: 0.0,
        pixel: false,
        upper: false,
    };

    /// The same font in bold.
    pub fn bold(self) -> Font {
        Font { bold: 0.7, ..self }
    }

    /// Applies the case of the font.
    pub fn cased(&self, s: &str) -> String {
        if self.upper {
            s.to_uppercase()
        } else {
            s.to_string()
        }
    }
}

/// Replaces letters the font lacks with their nearest plain letters.
pub fn transliterate(c: char) -> char {
    match c {
        'ą' => 'a',
        'Ą' => 'A',
        'ć' => 'c',
        'Ć' => 'C',
        'ę' => 'e',
        'Ę' => 'E',
        'ł' => 'l',
        'Ł' => 'L',
        'ń' => 'n',
        'Ń' => 'N',
        'ś' => 's',
        'Ś' => 'S',
        'ź' | 'ż' => 'z',
        'Ź' | 'Ż' => 'Z',
        'ő' => 'ö',
        'Ő' => 'Ö',
        'ű' => 'ü',
        'Ű' => 'Ü',
        c => c,
    }
}

/// The 8 rows of a glyph (bit `i` of a row is column `i`), blank for unknown characters.
pub fn glyph(c: char) -> [u8; 8] {
    let c = transliterate(c);
    BASIC_FONTS
        .get(c)
        .or_else(|| LATIN_FONTS.get(c))
        .unwrap_or([0; 8])
}

/// Glyphs of a string, with the font's case applied.
pub fn glyphs(s: &str, font: &Font) -> Vec<[u8; 8]> {
    font.cased(s).chars().map(glyph).collect()
}

/// Ink of a glyph at a point of its 8x8 cell (0..8 both ways), in [0, 1].
#[inline]
pub fn ink(g: &[u8; 8], gx: f32, gy: f32, font: &Font) -> f32 {
    let bit = |x: i32, y: i32| -> f32 {
        if (0..8).contains(&x) && (0..8).contains(&y) && g[y as usize] & (1 << x) != 0 {
            1.0
        } else {
            0.0
        }
    };
    let gx = gx + font.italic * (8.0 - gy) * 0.25;
    let sample = |gx: f32| -> f32 {
        if font.pixel {
            bit(
                super::draw::ffloor(gx) as i32,
                super::draw::ffloor(gy) as i32,
            )
        } else {
            let x = gx - 0.5;
            let y = gy - 0.5;
            let x0 = super::draw::ffloor(x);
            let y0 = super::draw::ffloor(y);
            let tx = x - x0;
            let ty = y - y0;
            let (x0, y0) = (x0 as i32, y0 as i32);
            let top = bit(x0, y0) * (1.0 - tx) + bit(x0 + 1, y0) * tx;
            let bot = bit(x0, y0 + 1) * (1.0 - tx) + bit(x0 + 1, y0 + 1) * tx;
            let v = top * (1.0 - ty) + bot * ty;
            ((v - 0.2) / 0.45).clamp(0.0, 1.0)
        }
    };
    let mut v = sample(gx);
    if font.bold > 0.0 {
        v = v.max(sample(gx - font.bold));
    }
    v
}

/// Splits text into lines of at most `max_chars` characters, at spaces where possible.
pub fn wrap(s: &str, max_chars: usize) -> Vec<String> {
    let max_chars = max_chars.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let wl = word.chars().count();
        let ll = line.chars().count();
        if ll > 0 && ll + 1 + wl > max_chars {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > max_chars {
            let head: String = line.chars().take(max_chars).collect();
            let tail: String = line.chars().skip(max_chars).collect();
            lines.push(head);
            line = tail;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_have_ink_and_spaces_do_not() {
        let a = glyph('A');
        assert!(a.iter().any(|&r| r != 0));
        assert_eq!(glyph(' '), [0; 8]);
        // Polish and Hungarian letters fall back to plain ones.
        assert_eq!(glyph('ł'), glyph('l'));
        assert!(glyph('ő').iter().any(|&r| r != 0));
        assert!(glyph('é').iter().any(|&r| r != 0));
    }

    #[test]
    fn wrapping_keeps_words_whole() {
        let lines = wrap("move to an adjacent city in the Outpost attack phase", 16);
        assert!(lines.iter().all(|l| l.chars().count() <= 16));
        assert_eq!(
            lines.join(" "),
            "move to an adjacent city in the Outpost attack phase"
        );
    }
}
