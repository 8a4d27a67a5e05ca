//! The generated table against the WHATWG `entities.json` it was generated from.

use std::collections::BTreeMap;

use thicket_charref::{
    LongestMatch, NAMED_REFERENCE_COUNT, longest_match, named, named_references,
};

fn table() -> BTreeMap<String, Vec<u32>> {
    let path = thicket_testkit::suite_root().join("entities/entities.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set THICKET_SUITES)", path.display()));
    let json: BTreeMap<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
    json.into_iter()
        .map(|(k, v)| {
            let points = v["codepoints"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap() as u32)
                .collect();
            (k.trim_start_matches('&').to_owned(), points)
        })
        .collect()
}

#[test]
fn all_2231_names_resolve_to_their_code_points() {
    let table = table();
    assert_eq!(table.len(), 2231);
    assert_eq!(NAMED_REFERENCE_COUNT, 2231);
    assert_eq!(named_references().count(), 2231);
    for (name, points) in &table {
        let entry = named(name).unwrap_or_else(|| panic!("{name} missing"));
        let value: Vec<u32> = entry.value.expect(name).chars().map(|c| c as u32).collect();
        assert_eq!(&value, points, "{name}");
    }
}

#[test]
fn legacy_names_without_semicolon() {
    let table = table();
    let legacy: Vec<&String> = table.keys().filter(|k| !k.ends_with(';')).collect();
    assert_eq!(legacy.len(), 106);
    for name in legacy {
        // Each legacy name also exists with a semicolon, and is a prefix of it.
        let entry = named(name).unwrap();
        assert!(entry.value.is_some(), "{name}");
        assert!(entry.has_longer, "{name} is a prefix of {name};");
        assert_eq!(
            named(&format!("{name};")).unwrap().value,
            entry.value,
            "{name}"
        );
    }
}

#[test]
fn two_code_point_entries() {
    let table = table();
    let two: Vec<(&String, &Vec<u32>)> = table.iter().filter(|(_, p)| p.len() == 2).collect();
    assert_eq!(two.len(), 93);
    for (name, points) in two {
        assert_eq!(
            named(name).unwrap().value.unwrap().chars().count(),
            2,
            "{name}"
        );
        assert_eq!(points.len(), 2);
    }
}

#[test]
fn every_prefix_is_present_and_marked() {
    let table = table();
    for name in table.keys() {
        for i in 1..name.len() {
            let prefix = &name[..i];
            let entry = named(prefix).unwrap_or_else(|| panic!("prefix {prefix} of {name}"));
            assert!(entry.has_longer, "{prefix} is a prefix of {name}");
            assert_eq!(
                entry.value.is_some(),
                table.contains_key(prefix),
                "{prefix}"
            );
        }
        let entry = named(name).unwrap();
        let longer = table
            .keys()
            .any(|k| k.len() > name.len() && k.starts_with(name.as_str()));
        assert_eq!(entry.has_longer, longer, "{name}");
    }
}

#[test]
fn prefix_queries_for_streaming() {
    assert!(named("am").is_some_and(|e| e.value.is_none() && e.has_longer));
    assert!(named("amq").is_none());
    assert_eq!(longest_match("am", false), LongestMatch::NeedMore);
    assert_eq!(
        longest_match("CounterClockwiseContourIntegral;", false),
        LongestMatch::Found {
            len: 32,
            value: "\u{2233}"
        }
    );
    // A long look-alike stops as soon as no name can match.
    let lookalike = "a".repeat(1 << 20);
    assert_eq!(longest_match(&lookalike, false), LongestMatch::None);
}
