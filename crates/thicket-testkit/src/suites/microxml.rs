//! Reader for the microxml suite format (being written).
