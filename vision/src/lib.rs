//! Vision for tablelens: frames in, layout out.
//!
//! - [`render`] draws proxy faces of every component and synthetic table photos whose true
//!   layout is known; the vision is trained and tested on them, and the app shows them as
//!   its demo table.
//! - [`perceive`] finds, identifies and places every card and token in a photo: an ONNX
//!   detector and embedder run by tract, a gallery of the player's own pieces, and the
//!   assembly of the layout.
//! - [`follow`] follows a game over frames: stable pieces, token memory, arrivals, battles.
//! - [`npy`] writes the training data the examples make for `models/train`.
//! - [`photo`] reads a photo from a file, turned as its camera meant it.
#![warn(missing_docs)]
// The docs say why each number is what it is, and link to the private constants and
// helpers that hold it: they are written for engineers reading the code, where
// `cargo doc --document-private-items` resolves every such link.
#![allow(rustdoc::private_intra_doc_links)]

pub mod follow;
pub mod npy;
pub mod perceive;
pub mod photo;
pub mod render;

/// The name under which a deck's card backs are enrolled (`DIR/card_back.png` or
/// `DIR/card_back/*.png` beside the faces): a card that shows one is face down, a deck or
/// a hand, and is no piece of the layout.
pub const CARD_BACK: &str = "card_back";
