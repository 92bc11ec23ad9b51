//! Vision for tablelens: the synthetic table renderer and, later, perception.
