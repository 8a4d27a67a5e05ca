//! Reader for the xml5lib suite format (being written).
