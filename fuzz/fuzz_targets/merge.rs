//! Identity and merging across inputs: the bytes cut in two at a place the input says, read as two files in
//! either order, and the whole read twice under two names. Nothing may panic; the two orders must give the
//! same report (the merge keys objects by kind, namespace as the API server defaults it, and name, never by
//! which file came first); a copy of every object under another file name adds no finding of its own but
//! those naming the copy (the duplicate is listed in the inventory).
#![no_main]

use kube_preflight::{check, Input, UpgradeOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte says where to cut (as a fraction of the rest); the rest is the input.
    let Some((&cut, body)) = data.split_first() else { return };
    let at = body.len() * usize::from(cut) / 255;
    let (a, b) = body.split_at(at.min(body.len()));
    let o = UpgradeOptions::new("1.29.2");
    let forward = check(&[Input::new("a.yaml", a), Input::new("b.yaml", b)], &o);
    let backward = check(&[Input::new("b.yaml", b), Input::new("a.yaml", a)], &o);
    if let (Ok(f), Ok(r)) = (&forward, &backward) {
        assert_eq!(f.to_json(), r.to_json(), "the order of the inputs changed the report");
    }
    assert_eq!(forward.is_ok(), backward.is_ok(), "one order read, the other refused");
    // The whole twice, under two names: read (or refused) as the one copy is, never a panic.
    let once = check(&[Input::new("a.yaml", body)], &o);
    let twice = check(&[Input::new("a.yaml", body), Input::new("copy/a.yaml", body)], &o);
    assert_eq!(once.is_ok(), twice.is_ok(), "a copy changed whether the input reads");
    if let (Ok(one), Ok(two)) = (&once, &twice) {
        assert_eq!(one.summary.verdict, two.summary.verdict, "a copy of every object changed the verdict");
    }
});
