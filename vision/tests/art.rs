//! A card's own art told from tokens lying on it (`perceive::art`), on rendered scenes
//! whose truth is known: at the true corners of each unit, the spot of every token lying on
//! it looks unlike the unit's face there (most of them clearly, under `NOT_ART`), and bare
//! spots of the art of the last unit of a column (seen whole) mostly look like it. Scored on a deck no model trained on as well as
//! the canonical one. Likewise a marker lying on a city never looks like the city's print it
//! hides, while bare spots of the city's print mostly do.

// Only `city_face` of the shared helpers is used here.
#[allow(dead_code)]
mod common;

use common::city_face;
use tablelens_engine::Catalogue;
use tablelens_vision::perceive::art::{ArtPicture, FaceArt, ART_SURE, NOT_ART};
use tablelens_vision::render::{all_faces, deck_style, Renderer, SceneOptions};

type Quad = [[f32; 2]; 4];

fn centre(q: &Quad) -> [f32; 2] {
    [
        q.iter().map(|p| p[0]).sum::<f32>() / 4.0,
        q.iter().map(|p| p[1]).sum::<f32>() / 4.0,
    ]
}

fn side(q: &Quad) -> f32 {
    (q[1][0] - q[0][0]).hypot(q[1][1] - q[0][1])
}

/// The upright square of side `side` about `c`, as the token finder reports a spot.
fn square(c: [f32; 2], side: f32) -> Quad {
    let h = side / 2.0;
    [
        [c[0] - h, c[1] - h],
        [c[0] + h, c[1] - h],
        [c[0] + h, c[1] + h],
        [c[0] - h, c[1] + h],
    ]
}

/// The point at `(u, v)` of a card lying at `q` (bilinear: the cards are nearly
/// parallelograms).
fn at(q: &Quad, u: f32, v: f32) -> [f32; 2] {
    let lerp =
        |a: [f32; 2], b: [f32; 2], t: f32| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    lerp(lerp(q[0], q[1], u), lerp(q[3], q[2], u), v)
}

/// The art of deck `deck`'s faces whose ids `keep` takes, and options rendering that deck.
fn deck_art(cat: &Catalogue, deck: u64, keep: impl Fn(&str) -> bool) -> (FaceArt, SceneOptions) {
    let style = deck_style(deck);
    let pictures: Vec<ArtPicture> = all_faces(cat, style)
        .iter()
        .filter(|(id, _)| keep(id))
        .map(|(id, face)| ArtPicture::of(id, face))
        .collect();
    let options = SceneOptions {
        style_pool: vec![style],
        ..SceneOptions::default()
    };
    (FaceArt::new(&pictures), options)
}

/// Adds to `bare` (matched, compared) the bare spots of face `face` lying at `card` in
/// `image`, a piece's side across (`piece_side`), at five points of the card clear of every
/// piece of `pieces` by one and a half sides: whether each looks like the face there.
fn count_bare(
    art: &FaceArt,
    image: &image::RgbImage,
    (face, card): (&str, &Quad),
    pieces: &[Quad],
    piece_side: f32,
    bare: &mut (usize, usize),
) {
    for (u, v) in [(0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7)] {
        let c = at(card, u, v);
        let clear = pieces.iter().all(|t| {
            let d = centre(t);
            (d[0] - c[0]).hypot(d[1] - c[1]) > 1.5 * piece_side
        });
        if !clear {
            continue;
        }
        let spot = square(c, piece_side);
        if let Some(l) = art.likeness(image, face, card, &spot) {
            bare.1 += 1;
            bare.0 += usize::from(l >= ART_SURE);
        }
    }
}

/// Over eight scenes of deck `deck`: (tokens whose spot matched their unit's art, tokens
/// clearly unlike it, tokens), (bare spots of art that matched it, bare spots compared).
fn score(deck: u64) -> ((usize, usize, usize), (usize, usize)) {
    let cat = Catalogue::bundled();
    let (art, options) = deck_art(&cat, deck, |id| {
        cat.card(id).is_some_and(|c| c.kind.is_unit())
    });
    let mut renderer = Renderer::new(&cat);
    let (mut tokens, mut bare) = ((0, 0, 0), (0, 0));
    for i in 0..8 {
        let scene = renderer.render(31, i, &options);
        let all_tokens: Vec<Quad> = scene
            .truth
            .cities
            .iter()
            .flat_map(|c| c.moloch.iter().chain(&c.outpost))
            .flat_map(|u| u.token_corners.iter().copied())
            .collect();
        for city in &scene.truth.cities {
            for column in [&city.moloch, &city.outpost] {
                for (k, unit) in column.iter().enumerate() {
                    let Some(card) = unit.corners else { continue };
                    let token_side = side(&card) * 18.0 / 63.0;
                    for t in &unit.token_corners {
                        let spot = square(centre(t), side(t));
                        if let Some(l) = art.likeness(&scene.image, &unit.card, &card, &spot) {
                            tokens.2 += 1;
                            tokens.1 += usize::from(l < NOT_ART);
                            tokens.0 += usize::from(l >= ART_SURE);
                        }
                    }
                    if k + 1 != column.len() {
                        continue;
                    }
                    let face = (unit.card.as_str(), &card);
                    count_bare(&art, &scene.image, face, &all_tokens, token_side, &mut bare);
                }
            }
        }
    }
    (tokens, bare)
}

fn check(deck: u64) {
    let ((tokens_as_art, tokens_unlike, tokens), (art_as_art, bare)) = score(deck);
    eprintln!(
        "deck {deck}: tokens taken for art {tokens_as_art} of {tokens}, clearly unlike it \
         {tokens_unlike}, bare art matched {art_as_art} of {bare}"
    );
    assert!(
        tokens >= 40 && bare >= 40,
        "too few compared: {tokens}, {bare}"
    );
    // A real token is never taken for the art it hides.
    assert_eq!(tokens_as_art, 0, "deck {deck}");
    // And most are clearly unlike it, as a token named a little under its bar is kept.
    assert!(
        tokens_unlike * 10 >= tokens * 8,
        "deck {deck}: {tokens_unlike} of {tokens}"
    );
    // Most bare art, seen at its true corners, is recognised as art.
    assert!(
        art_as_art * 10 >= bare * 6,
        "deck {deck}: bare art matched {art_as_art} of {bare}"
    );
}

#[test]
fn tokens_are_not_art_and_bare_art_is_on_the_canonical_deck() {
    check(0);
}

#[test]
fn tokens_are_not_art_and_bare_art_is_on_an_unseen_deck() {
    check(5);
}

/// Over twelve scenes of deck `deck`: (markers on a city whose spot matched the city's
/// print, markers compared), (bare spots of a city's print that matched it, bare spots
/// compared).
fn city_score(deck: u64) -> ((usize, usize), (usize, usize)) {
    let cat = Catalogue::bundled();
    let (art, options) = deck_art(&cat, deck, |id| cat.card(id).is_none());
    let mut renderer = Renderer::new(&cat);
    let (mut markers, mut bare) = ((0, 0), (0, 0));
    for i in 0..12 {
        let scene = renderer.render(37, i, &options);
        for city in &scene.truth.cities {
            let Some(card) = city.corners else { continue };
            let face = city_face(city);
            let marker_corners: Vec<Quad> = city.markers.iter().filter_map(|m| m.corners).collect();
            for m in &marker_corners {
                let spot = square(centre(m), side(m));
                if let Some(l) = art.likeness(&scene.image, &face, &card, &spot) {
                    markers.1 += 1;
                    markers.0 += usize::from(l >= ART_SURE);
                }
            }
            let marker_side = side(&card) * 18.0 / 63.0;
            let face = (face.as_str(), &card);
            count_bare(
                &art,
                &scene.image,
                face,
                &marker_corners,
                marker_side,
                &mut bare,
            );
        }
    }
    (markers, bare)
}

fn check_cities(deck: u64) {
    let ((markers_as_print, markers), (print_as_print, bare)) = city_score(deck);
    eprintln!(
        "deck {deck}: markers taken for the city's print {markers_as_print} of {markers}, \
         bare print matched {print_as_print} of {bare}"
    );
    assert!(
        markers >= 10 && bare >= 40,
        "too few compared: {markers}, {bare}"
    );
    // A marker is never taken for the print it lies on, though that print is the place
    // printed for it.
    assert_eq!(markers_as_print, 0, "deck {deck}");
    // Most bare print, seen at its true corners, is recognised as print.
    assert!(
        print_as_print * 10 >= bare * 6,
        "deck {deck}: bare print matched {print_as_print} of {bare}"
    );
}

#[test]
fn markers_are_not_city_print_and_bare_print_is_on_the_canonical_deck() {
    check_cities(0);
}

#[test]
fn markers_are_not_city_print_and_bare_print_is_on_an_unseen_deck() {
    check_cities(11);
}
