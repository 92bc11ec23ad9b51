//! Helpers shared by the end-to-end tests that start from a rendered scene's true layout.

use tablelens_engine::CityLayout;
use tablelens_vision::perceive::assemble::Piece;
use tablelens_vision::perceive::PieceClass;

/// A card at `corners`, named `id` at `similarity` (its only similarity to a face).
pub fn named(id: &str, corners: [[f32; 2]; 4], similarity: f32) -> Piece {
    Piece {
        class: PieceClass::Card,
        corners,
        score: 0.9,
        id: Some(id.to_string()),
        similarity,
        best: id.to_string(),
        similarities: vec![(id.to_string(), similarity)],
    }
}

/// The face a city card shows: its destroyed side's once it fell.
pub fn city_face(city: &CityLayout) -> String {
    if city.destroyed {
        format!("{}_destroyed", city.id.as_str())
    } else {
        city.id.as_str().to_string()
    }
}
