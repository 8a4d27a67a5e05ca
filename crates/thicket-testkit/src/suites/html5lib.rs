//! Reader for the html5lib suite format (being written).
