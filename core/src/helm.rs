//! Helm 3 release records (DOMAIN section 2): `sh.helm.release.v1.<release>.v<revision>` Secrets of type
//! `helm.sh/release.v1` (and the ConfigMap storage driver's ConfigMaps). `data.release` is base64 of
//! base64 of gzip of the release JSON (one base64 layer fewer in a ConfigMap); the JSON's `manifest` holds
//! the release's objects as one `---`-separated YAML string.

use crate::parse::{parse_json, parse_yaml_documents, Node};

/// Decompressed releases larger than this are not read (a zip-bomb guard): listed as skipped, naming it.
pub const MAX_RELEASE_BYTES: usize = 16 << 20;
/// All release records together decompress to at most this many bytes: past it, the records left are
/// listed as skipped, naming it (150 records of 16 MiB each were 2.4 GB to decompress and parse).
pub const MAX_HELM_TOTAL_BYTES: usize = 128 << 20;
/// Releases whose manifest holds more objects than this are not read (a 100 KB record can gunzip into
/// hundreds of thousands of tiny documents).
pub const MAX_RELEASE_OBJECTS: usize = 10_000;

/// A decoded deployed release.
pub struct Release {
    pub name: String,
    pub namespace: String,
    pub revision: i64,
    pub chart: String,
    /// The chart's `kubeVersion` (`chart.metadata.kubeVersion`): the Kubernetes versions Helm installs and
    /// upgrades it on.
    pub kube_version: Option<String>,
    pub status: String,
    /// The manifest's documents.
    pub documents: Vec<Node>,
}

/// Is this object (already known to be a Secret or ConfigMap) a Helm release record?
pub fn is_release_record(doc: &Node) -> bool {
    let kind = doc.get("kind").as_str().unwrap_or_default();
    let labels = doc.at(&["metadata", "labels"]);
    let named = doc.at(&["metadata", "name"]).as_str().is_some_and(|n| n.starts_with("sh.helm.release.v1."));
    match kind {
        "Secret" => {
            doc.get("type").as_str() == Some("helm.sh/release.v1")
                || (named && labels.get("owner").as_str() == Some("helm"))
        }
        "ConfigMap" => named && labels.get("owner").as_str() == Some("helm"),
        _ => false,
    }
}

fn b64_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    } as u32)
}

/// Standard or URL-safe base64, padding optional, whitespace ignored.
pub fn base64_decode(input: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0;
    for &c in input {
        if c == b'=' {
            break;
        }
        if c.is_ascii_whitespace() {
            continue;
        }
        acc = (acc << 6) | b64_value(c)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// gunzip (RFC 1952), every member as Go's `gzip.Reader` reads them (one after another, concatenated), at
/// most `MAX_RELEASE_BYTES` out and no more than `budget` (what is left of `MAX_HELM_TOTAL_BYTES`), saying
/// why not: not gzip, or larger than a limit. What is decompressed is taken from the budget.
fn gunzip_limited(data: &[u8], budget: &mut usize) -> Result<Vec<u8>, String> {
    let junk = || "the release is not valid gzip".to_owned();
    let limit = MAX_RELEASE_BYTES.min(*budget);
    let mut out = Vec::new();
    let mut rest = data;
    loop {
        let body = gzip_body(rest).ok_or_else(junk)?;
        let consumed = inflate_raw(body, limit, &mut out).map_err(|too_large| {
            if !too_large {
                return junk();
            }
            *budget = budget.saturating_sub(limit);
            if limit < MAX_RELEASE_BYTES {
                format!(
                    "the release records read before it decompress to {} MiB together (MAX_HELM_TOTAL_BYTES)",
                    MAX_HELM_TOTAL_BYTES >> 20
                )
            } else {
                format!("the release is larger than {} MiB decompressed (MAX_RELEASE_BYTES)", MAX_RELEASE_BYTES >> 20)
            }
        })?;
        // The member's trailer (CRC-32, size; not checked, and a last member may lack it), then another
        // member or the end.
        rest = body.get(consumed.saturating_add(8)..).unwrap_or_default();
        if rest.is_empty() {
            break;
        }
    }
    *budget = budget.saturating_sub(out.len());
    Ok(out)
}

/// Inflate one raw deflate stream onto `out`, at most `limit` bytes in all: the input bytes it took, or
/// `Err(true)` past the limit, `Err(false)` for a stream that is not deflate or ends early.
fn inflate_raw(input: &[u8], limit: usize, out: &mut Vec<u8>) -> Result<usize, bool> {
    use miniz_oxide::inflate::stream::{inflate, InflateState};
    use miniz_oxide::{DataFormat, MZFlush, MZStatus};
    let mut state = InflateState::new_boxed(DataFormat::Raw);
    let mut buf = vec![0u8; 64 << 10];
    let mut pos = 0;
    loop {
        let r = inflate(&mut state, input.get(pos..).unwrap_or_default(), &mut buf, MZFlush::None);
        pos += r.bytes_consumed;
        if out.len().saturating_add(r.bytes_written) > limit {
            return Err(true);
        }
        out.extend_from_slice(buf.get(..r.bytes_written).unwrap_or_default());
        match r.status {
            Ok(MZStatus::StreamEnd) => return Ok(pos),
            Ok(_) if r.bytes_consumed > 0 || r.bytes_written > 0 => {}
            _ => return Err(false),
        }
    }
}

/// The deflate stream inside a gzip member.
fn gzip_body(data: &[u8]) -> Option<&[u8]> {
    if data.get(..3)? != [0x1f, 0x8b, 0x08] {
        return None;
    }
    let flags = *data.get(3)?;
    let mut i = 10;
    if flags & 0x04 != 0 {
        let xlen = u16::from_le_bytes([*data.get(i)?, *data.get(i + 1)?]) as usize;
        i += 2 + xlen;
    }
    for bit in [0x08, 0x10] {
        if flags & bit != 0 {
            i += data.get(i..)?.iter().position(|b| *b == 0)? + 1;
        }
    }
    if flags & 0x02 != 0 {
        i += 2;
    }
    data.get(i..)
}

/// Decode a release record. `Err` says why it could not be read (the caller lists it as skipped);
/// `Ok(None)` is a release that is not deployed (superseded, failed, uninstalling...).
pub fn decode(doc: &Node, budget: &mut usize) -> Result<Option<Release>, String> {
    let is_secret = doc.get("kind").as_str() == Some("Secret");
    let raw = doc.at(&["data", "release"]).as_str().ok_or("no data.release")?;
    let mut bytes = base64_decode(raw.as_bytes()).ok_or("data.release is not base64")?;
    if is_secret {
        // The Secret's own base64 layer, over Helm's.
        bytes = base64_decode(&bytes).ok_or("data.release is not base64 inside")?;
    }
    if bytes.starts_with(&[0x1f, 0x8b, 0x08]) {
        bytes = gunzip_limited(&bytes, budget)?;
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| "the release is not UTF-8 JSON")?;
    let rel = parse_json("release", text).map_err(|e| format!("the release JSON does not parse: {e}"))?;
    let status = rel.at(&["info", "status"]).as_str().unwrap_or_default().to_owned();
    if status != "deployed" {
        return Ok(None);
    }
    let manifest = rel.get("manifest").as_str().unwrap_or_default();
    // Counted before parsing: a document starts at each `---` line.
    let separators = manifest.lines().filter(|l| l.starts_with("---")).count();
    if separators > MAX_RELEASE_OBJECTS {
        return Err(format!("its manifest holds more than {MAX_RELEASE_OBJECTS} documents (MAX_RELEASE_OBJECTS)"));
    }
    let documents =
        parse_yaml_documents("manifest", manifest).map_err(|e| format!("its manifest does not parse: {e}"))?;
    let meta = rel.at(&["chart", "metadata"]);
    Ok(Some(Release {
        name: rel.get("name").as_str().unwrap_or_default().to_owned(),
        namespace: rel.get("namespace").as_str().unwrap_or_default().to_owned(),
        revision: rel.get("version").as_i64().unwrap_or(0),
        chart: format!("{}-{}", meta.get("name").as_str().unwrap_or("?"), meta.get("version").as_str().unwrap_or("?")),
        kube_version: meta.get("kubeVersion").as_str().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned),
        status,
        documents,
    }))
}

/// A version as Masterminds/semver reads it (Helm's `chartutil.IsCompatibleRange`): numbers, and the
/// prerelease identifiers (empty for a release).
#[derive(Debug, Clone, PartialEq, Eq)]
struct SemVer {
    nums: [u64; 3],
    pre: Vec<String>,
}

impl SemVer {
    fn cmp(&self, o: &SemVer) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        match self.nums.cmp(&o.nums) {
            Ordering::Equal => {}
            other => return other,
        }
        // A release ranks above any prerelease of the same numbers; prereleases compare by identifier
        // (numeric ones numerically and below alphanumeric ones), a shorter list first when one is a prefix.
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            (false, false) => {}
        }
        for (a, b) in self.pre.iter().zip(&o.pre) {
            let c = match (a.parse::<u64>(), b.parse::<u64>()) {
                (Ok(x), Ok(y)) => x.cmp(&y),
                (Ok(_), Err(_)) => Ordering::Less,
                (Err(_), Ok(_)) => Ordering::Greater,
                (Err(_), Err(_)) => a.cmp(b),
            };
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

/// One constraint: its operator, its version (wildcards and missing parts as 0), and which parts were
/// wildcards or missing.
struct Constraint {
    op: String,
    con: SemVer,
    /// The major was a wildcard or missing (`*`), the minor (`1`, `1.x`), the patch (`1.2`, `1.2.x`).
    dirty: bool,
    minor_dirty: bool,
    patch_dirty: bool,
}

const OPS: [&str; 12] = ["", "=", "!=", ">", "<", ">=", "=>", "<=", "=<", "~", "~>", "^"];

fn is_x(s: &str) -> bool {
    matches!(s, "x" | "X" | "*")
}

/// A constraint of operator `op` (one of [`OPS`]) on `1.21.0-0`, `v1.2`, `1.x`, `*`.
fn constraint(op: &str, raw: &str) -> Result<Constraint, String> {
    let bad = || format!("{raw:?} is not a version");
    let s = raw.strip_prefix('v').unwrap_or(raw);
    let s = s.split_once('+').map_or(s, |(v, _)| v);
    let (core, pre) = match s.split_once('-') {
        Some((c, p)) if !p.is_empty() => (c, p.split('.').map(str::to_owned).collect::<Vec<_>>()),
        Some(_) => return Err(bad()),
        None => (s, Vec::new()),
    };
    let parts: Vec<&str> = core.split('.').collect();
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return Err(bad());
    }
    let num = |p: &str| if is_x(p) { Ok(0) } else { p.parse::<u64>().map_err(|_| bad()) };
    let major = parts.first().copied().unwrap_or("x");
    let minor = parts.get(1).copied();
    let patch = parts.get(2).copied();
    let (dirty, minor_dirty, patch_dirty, nums) = if is_x(major) {
        (true, false, false, [0, 0, 0])
    } else if minor.is_none_or(is_x) {
        (true, true, false, [num(major)?, 0, 0])
    } else if patch.is_none_or(is_x) {
        (true, false, true, [num(major)?, num(minor.unwrap_or("0"))?, 0])
    } else {
        (false, false, false, [num(major)?, num(minor.unwrap_or("0"))?, num(patch.unwrap_or("0"))?])
    };
    Ok(Constraint { op: op.to_owned(), con: SemVer { nums, pre }, dirty, minor_dirty, patch_dirty })
}

/// The constraints of one `||` alternative, read as Masterminds/semver's `NewConstraint` reads them:
/// `A - B` as `>= A <= B`, constraints apart by spaces or commas, each an operator and a version.
fn alternative(raw: &str) -> Result<Vec<Constraint>, String> {
    let tokens: Vec<&str> = raw.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).collect();
    // A hyphen range: `1.2 - 1.4.5`.
    let mut i = 0;
    let mut pieces: Vec<String> = Vec::new();
    while i < tokens.len() {
        if tokens.get(i + 1) == Some(&"-") {
            if let (Some(a), Some(b)) = (tokens.get(i), tokens.get(i + 2)) {
                pieces.push(format!(">={a}"));
                pieces.push(format!("<={b}"));
                i += 3;
                continue;
            }
        }
        if let Some(t) = tokens.get(i) {
            pieces.push((*t).to_owned());
        }
        i += 1;
    }
    // An operator written apart from its version (`>= 1.21`) joins it.
    let mut joined: Vec<String> = Vec::new();
    let mut pending_op: Option<String> = None;
    for p in pieces {
        if OPS.contains(&p.as_str()) && !p.is_empty() {
            pending_op = Some(p);
            continue;
        }
        joined.push(format!("{}{p}", pending_op.take().unwrap_or_default()));
    }
    if let Some(op) = pending_op {
        return Err(format!("{op:?} has no version"));
    }
    if joined.is_empty() {
        // An empty alternative is `*`.
        return Ok(vec![constraint("", "*")?]);
    }
    joined
        .iter()
        .map(|t| {
            let split = t.find(|c: char| !matches!(c, '=' | '!' | '<' | '>' | '~' | '^')).unwrap_or(t.len());
            let (op, ver) = t.split_at(split);
            if !OPS.contains(&op) {
                return Err(format!("{op:?} is not an operator"));
            }
            constraint(op, ver)
        })
        .collect()
}

fn tilde(v: &SemVer, c: &Constraint) -> bool {
    if v.cmp(&c.con).is_lt() {
        return false;
    }
    if c.con.nums == [0, 0, 0] && !c.minor_dirty && !c.patch_dirty {
        return true;
    }
    v.nums[0] == c.con.nums[0] && (v.nums[1] == c.con.nums[1] || c.minor_dirty)
}

/// Does one constraint hold for a release version `v` (no prerelease: Kubernetes as Helm is told of it)?
fn holds(v: &SemVer, c: &Constraint) -> bool {
    let [vmaj, vmin, vpat] = v.nums;
    let [cmaj, cmin, cpat] = c.con.nums;
    match c.op.as_str() {
        "" | "=" => {
            if c.dirty {
                tilde(v, c)
            } else {
                v.cmp(&c.con).is_eq()
            }
        }
        "!=" => {
            if c.dirty {
                if cmaj != vmaj {
                    return true;
                }
                if c.minor_dirty {
                    return false;
                }
                if cmin != vmin {
                    return true;
                }
                if c.patch_dirty {
                    return !c.con.pre.is_empty();
                }
                return cpat != vpat || !c.con.pre.is_empty();
            }
            !v.cmp(&c.con).is_eq()
        }
        ">" => {
            if !c.dirty {
                return v.cmp(&c.con).is_gt();
            }
            if vmaj != cmaj {
                return vmaj > cmaj;
            }
            if c.minor_dirty {
                return false;
            }
            if c.patch_dirty {
                return vmin > cmin;
            }
            v.cmp(&c.con).is_gt()
        }
        "<" => v.cmp(&c.con).is_lt(),
        ">=" | "=>" => v.cmp(&c.con).is_ge(),
        "<=" | "=<" => {
            if !c.dirty {
                return v.cmp(&c.con).is_le();
            }
            !(vmaj > cmaj || (vmaj == cmaj && vmin > cmin && !c.minor_dirty))
        }
        "~" | "~>" => tilde(v, c),
        "^" => {
            if v.cmp(&c.con).is_lt() {
                return false;
            }
            if cmaj > 0 || c.minor_dirty {
                return vmaj == cmaj;
            }
            if vmaj > 0 {
                return false;
            }
            if cmin > 0 || c.patch_dirty {
                return vmin == cmin;
            }
            vpat == cpat
        }
        _ => false,
    }
}

/// Does a chart's `kubeVersion` allow Kubernetes `1.minor.patch`, as Helm checks it before it installs or
/// upgrades the chart (`chartutil.IsCompatibleRange`, Masterminds/semver v3 constraints)? `Err` when Helm
/// cannot read the constraint (it then refuses the chart too).
pub fn kube_version_allows(constraint: &str, minor: u32, patch: u32) -> Result<bool, String> {
    let v = SemVer { nums: [1, u64::from(minor), u64::from(patch)], pre: Vec::new() };
    let mut any = false;
    for alt in constraint.split("||") {
        let cs = alternative(alt)?;
        any |= cs.iter().all(|c| holds(&v, c));
    }
    Ok(any)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases from Masterminds/semver's `constraints_test.go` (`TestConstraintsCheck`), on release versions.
    #[test]
    fn kube_version_ranges_read_as_helm_reads_them() {
        let ok = |c: &str, minor: u32, patch: u32| kube_version_allows(c, minor, patch).unwrap();
        // The range charts write so that vendor builds (`v1.29.2-eks-...`) pass: `-0`.
        assert!(ok(">=1.21.0-0 <1.29.0-0", 28, 9));
        assert!(!ok(">=1.21.0-0 <1.29.0-0", 29, 0));
        assert!(ok(">= 1.19.0-0", 29, 2));
        assert!(ok("~1.28.0", 28, 5) && !ok("~1.28.0", 29, 0));
        assert!(ok("^1.20", 33, 1));
        assert!(ok("1.x", 29, 2) && ok("*", 29, 2) && ok("", 29, 2));
        assert!(ok("1.28.x", 28, 3) && !ok("1.28.x", 29, 0));
        assert!(ok(">1.28", 29, 0) && !ok(">1.28", 28, 9));
        assert!(ok("<=1.28", 28, 9) && !ok("<=1.28", 29, 0));
        assert!(ok("<=1.28.x", 28, 12));
        assert!(ok("1.26 - 1.28", 28, 9) && !ok("1.26 - 1.28", 29, 0));
        assert!(ok(">=1.30 || <1.25", 24, 3) && !ok(">=1.30 || <1.25", 27, 0));
        assert!(ok(">=1.20, <1.30", 29, 2));
        assert!(ok("!=1.29.1", 29, 2) && !ok("!=1.29.1", 29, 1) && !ok("!=1.29.x", 29, 5));
        assert!(ok("=1.29.2", 29, 2) && !ok("1.29.2", 29, 3));
        assert!(kube_version_allows(">= one", 29, 0).is_err());
        assert!(kube_version_allows("?1.2", 29, 0).is_err());
    }

    #[test]
    fn base64_round_trips() {
        assert_eq!(base64_decode(b"aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode(b"aGVsbG8").unwrap(), b"hello");
        assert_eq!(base64_decode(b"aGVs\nbG8h").unwrap(), b"hello!");
        assert!(base64_decode(b"a*b").is_none());
    }

    #[test]
    fn gunzip_reads_gzip_and_refuses_junk() {
        // `printf 'hi\n' | gzip -n | base64`
        let gz = base64_decode(b"H4sIAAAAAAAAA8vI5AIAenpv7QMAAAA=").unwrap();
        let mut budget = MAX_HELM_TOTAL_BYTES;
        assert_eq!(gunzip_limited(&gz, &mut budget).unwrap(), b"hi\n");
        assert_eq!(budget, MAX_HELM_TOTAL_BYTES - 3);
        assert!(gunzip_limited(b"\x1f\x8b\x08\x00", &mut budget).is_err());
        assert!(gunzip_limited(b"plain", &mut budget).is_err());
        // Several members, as Go's gzip.Reader reads them (multistream): one text, in order.
        let two = [gz.clone(), gz.clone()].concat();
        assert_eq!(gunzip_limited(&two, &mut budget).unwrap(), b"hi\nhi\n");
        // A member cut short in its data, or junk after one: not gzip (Go's reader errs alike).
        assert!(gunzip_limited(&gz[..gz.len() - 10], &mut budget).is_err());
        assert!(gunzip_limited(&[gz.clone(), b"junk".to_vec()].concat(), &mut budget).is_err());
    }

    fn b64(bytes: &[u8]) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk.iter().enumerate().fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
            for k in 0..4 {
                if k <= chunk.len() {
                    out.push(char::from(A[((n >> (18 - 6 * k)) & 63) as usize]));
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    fn secret_with_manifest(manifest: &str) -> Node {
        let release = format!(
            r#"{{"name":"r","namespace":"n","version":1,"info":{{"status":"deployed"}},"manifest":{}}}"#,
            serde_json::to_string(manifest).unwrap()
        );
        let mut gz = vec![0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff];
        gz.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(release.as_bytes(), 6));
        let data = b64(b64(&gz).as_bytes());
        let doc = format!(
            r#"{{"apiVersion":"v1","kind":"Secret","type":"helm.sh/release.v1","metadata":{{"name":"sh.helm.release.v1.r.v1"}},"data":{{"release":"{data}"}}}}"#
        );
        parse_json("s.json", &doc).unwrap()
    }

    #[test]
    fn a_release_with_too_many_objects_is_refused_naming_the_limit() {
        let many = "---\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: c}\n".repeat(MAX_RELEASE_OBJECTS + 1);
        let e = decode(&secret_with_manifest(&many), &mut { usize::MAX }).err().unwrap();
        assert!(e.contains("MAX_RELEASE_OBJECTS"), "{e}");
        let few = "---\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: c}\n".repeat(3);
        assert_eq!(decode(&secret_with_manifest(&few), &mut { usize::MAX }).unwrap().unwrap().documents.len(), 3);
    }

    #[test]
    fn a_release_bomb_is_refused_naming_the_limit() {
        // 64 MiB of zeros compress to about 64 KiB.
        let zeros = vec![0u8; 64 << 20];
        let deflated = miniz_oxide::deflate::compress_to_vec(&zeros, 9);
        let mut gz = vec![0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff];
        gz.extend_from_slice(&deflated);
        let e = gunzip_limited(&gz, &mut { MAX_HELM_TOTAL_BYTES }).unwrap_err();
        assert!(e.contains("MAX_RELEASE_BYTES"), "{e}");
        // Each record below the limit, but together past the total: the later ones are refused.
        let mut budget = MAX_HELM_TOTAL_BYTES;
        let eight = miniz_oxide::deflate::compress_to_vec(&vec![0u8; 8 << 20], 9);
        let mut gz = vec![0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff];
        gz.extend_from_slice(&eight);
        let read =
            (0..MAX_HELM_TOTAL_BYTES / (8 << 20) + 2).filter(|_| gunzip_limited(&gz, &mut budget).is_ok()).count();
        assert_eq!(read, MAX_HELM_TOTAL_BYTES / (8 << 20));
        let e = gunzip_limited(&gz, &mut budget).unwrap_err();
        assert!(e.contains("MAX_HELM_TOTAL_BYTES"), "{e}");
    }
}
