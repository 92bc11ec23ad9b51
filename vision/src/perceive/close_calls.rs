//! Close calls: the pieces named by a narrow margin over another reading, which the
//! layout lists as `doubts` so that the player knows which pieces to look at before
//! trusting the totals (the engine turns each into a warning).
//!
//! A named card, token or module strip keeps its similarity to every face it might have
//! been ([`Piece::similarities`]): its name's lead over the best other face says how close
//! the call was. The lead is negative where a later look (the face comparison, the look-alikes'
//! hue and glyph, a strip's detail) named the piece against the embedder's preference.
//!
//! Chosen on the validation sets of `models/README.md` (720 scenes), the unseen ones
//! (1,050) and the recast copies (930) reported only; `tablelens eval` counts it
//! (`close_calls`). At a lead under 0.05 for every class, a doubt, or a piece left unknown,
//! is listed in 48 of the 64 validation layouts that are not exactly right and in 172 of
//! the 656 that are; unseen, 86 of 123 and 238 of 927 (0.57 doubts a photo: 304 tokens,
//! 141 cards, 152 modules over the 1,050); recast, 98 of 134 and 233 of 796. Of the unseen
//! pieces named wrong, 34 of 109 are listed; of those named right, 550 of 26,458. Most wrong
//! layouts left unlisted miss a unit the detector never found, or name a card wrong by a
//! clear lead: nothing there looked in doubt.
//!
//! Throwaway counts of the same kind on validation, cards and tokens only: a token lead of
//! 0.1 listed 40 of the 64 layouts not exact but 154 of the 656 exact ones, against 35 and
//! 111 at 0.05; a card lead of 0.08, 40 and 147. Module strips at 0.05 are 8 of the 9 named
//! wrong and 137 of the 1,897 named right; at 0.03, 6 and 83.

use super::assemble::Piece;
use super::detect::PieceClass;

/// A card named with a lead under this over its next face is a close call.
pub const CARD_LEAD: f32 = 0.05;
/// A token or marker named with a lead under this over its next component is a close call.
pub const SMALL_LEAD: f32 = 0.05;
/// A module strip named with a lead under this over its next module is a close call.
pub const STRIP_LEAD: f32 = 0.05;

/// The reading that came closest to a named piece's name, and its name's lead over it;
/// `None` for a piece not named, or with no other reading kept (a module strip). A card
/// back is no rival: a face-down card is not a piece of the layout.
pub fn rival(p: &Piece) -> Option<(&str, f32)> {
    let id = p.id.as_deref()?;
    let own = p
        .similarities
        .iter()
        .filter(|(c, _)| c == id)
        .map(|&(_, s)| s)
        .reduce(f32::max)?;
    let (other, s) = p
        .similarities
        .iter()
        .filter(|(c, _)| c != id && c != crate::CARD_BACK)
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some((other.as_str(), own - s))
}

/// The rival of a named piece that was a close call ([`CARD_LEAD`], [`SMALL_LEAD`],
/// [`STRIP_LEAD`]).
pub fn doubt(p: &Piece) -> Option<&str> {
    let bar = match p.class {
        PieceClass::Card => CARD_LEAD,
        PieceClass::Small => SMALL_LEAD,
        PieceClass::Strip => STRIP_LEAD,
    };
    rival(p).filter(|&(_, lead)| lead < bar).map(|(r, _)| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(class: PieceClass, id: Option<&str>, sims: &[(&str, f32)]) -> Piece {
        Piece {
            class,
            corners: [[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]],
            score: 0.9,
            id: id.map(String::from),
            similarity: 0.8,
            best: id.unwrap_or_default().to_string(),
            similarities: sims.iter().map(|&(c, s)| (c.to_string(), s)).collect(),
        }
    }

    #[test]
    fn the_rival_is_the_best_other_reading_and_the_lead_may_be_negative() {
        let sure = piece(
            PieceClass::Card,
            Some("hunter"),
            &[("hunter", 0.9), ("ripper", 0.6), ("brain", 0.7)],
        );
        let (r, lead) = rival(&sure).unwrap();
        assert_eq!(r, "brain");
        assert!((lead - 0.2).abs() < 1e-6);
        assert_eq!(doubt(&sure), None);
        // Named against the embedder's preference by a later look.
        let overruled = piece(
            PieceClass::Small,
            Some("token_plus2"),
            &[("token_plus1", 0.8), ("token_plus2", 0.75)],
        );
        assert_eq!(doubt(&overruled), Some("token_plus1"));
    }

    #[test]
    fn a_narrow_lead_is_a_doubt_for_every_class() {
        let close = [("a", 0.80), ("b", 0.77)];
        let clear = [("a", 0.80), ("b", 0.70)];
        for class in PieceClass::ALL {
            assert_eq!(
                doubt(&piece(class, Some("a"), &close)),
                Some("b"),
                "{class:?}"
            );
            assert_eq!(doubt(&piece(class, Some("a"), &clear)), None, "{class:?}");
        }
        // Unnamed, or with nothing to compare with: no doubt to list.
        assert_eq!(doubt(&piece(PieceClass::Card, None, &close)), None);
        assert_eq!(doubt(&piece(PieceClass::Card, Some("a"), &[])), None);
        assert_eq!(
            doubt(&piece(PieceClass::Card, Some("a"), &[("a", 0.9)])),
            None
        );
    }

    #[test]
    fn a_card_back_is_no_rival() {
        let p = piece(
            PieceClass::Card,
            Some("hunter"),
            &[("hunter", 0.8), (crate::CARD_BACK, 0.79), ("ripper", 0.5)],
        );
        assert_eq!(rival(&p).map(|(r, _)| r), Some("ripper"));
        assert_eq!(doubt(&p), None);
    }
}
