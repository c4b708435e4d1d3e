//! The options as the page edits them (text fields), the options JSON the core reads, and the URL query
//! that keeps them (never any cluster data), so that a review can be reopened and shared.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// The drain setting: the distribution's default, or forced on or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Drain {
    #[default]
    Default,
    On,
    Off,
}

impl Drain {
    pub fn name(self) -> &'static str {
        match self {
            Drain::Default => "default",
            Drain::On => "on",
            Drain::Off => "off",
        }
    }

    pub fn parse(s: &str) -> Drain {
        match s {
            "on" | "true" => Drain::On,
            "off" | "false" => Drain::Off,
            _ => Drain::Default,
        }
    }
}

/// Every option the page offers, as typed. Empty means "the distribution's default".
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Opts {
    pub to: String,
    pub from: String,
    pub profile: String,
    pub max_unavailable_worker: String,
    pub max_unavailable_control_plane: String,
    pub max_surge: String,
    pub drain: Drain,
    /// The drain's `--force` (`drainForce`): default is the distribution's (off for kubectl and RKE).
    pub drain_force: Drain,
    /// The drain's `--delete-emptydir-data` (`drainDeleteLocalData`).
    pub drain_delete_local_data: Drain,
    /// Overrides of the plan's times, in seconds, by name (`drainTimeoutSeconds`, ...).
    pub timings: BTreeMap<String, String>,
    /// Families of checks left out by choice (`skip`), as typed: ids separated by commas.
    pub skip: String,
    /// The report taken before the upgrade started (`since`), as picked: never put in the URL.
    pub since: Option<SinceReport>,
}

/// A report file picked for `since`: its name and its JSON text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SinceReport {
    pub name: String,
    pub json: std::rc::Rc<str>,
}

impl Opts {
    /// The family ids of `skip`, in the order typed.
    pub fn skip_ids(&self) -> Vec<&str> {
        self.skip.split(',').map(str::trim).filter(|s| !s.is_empty()).collect()
    }
}

/// A limit as JSON: a whole number as a number, anything else (`"25%"`, a typo) as a string, so that the
/// core names the field when it is wrong.
fn limit_json(raw: &str) -> Value {
    let raw = raw.trim();
    match raw.parse::<u32>() {
        Ok(n) if raw.bytes().all(|b| b.is_ascii_digit()) => Value::from(n),
        _ => Value::from(raw),
    }
}

impl Opts {
    /// The options JSON the core reads (CONTRACT section 3); empty fields are left to the defaults.
    pub fn to_json(&self) -> String {
        let mut m = Map::new();
        m.insert("to".into(), Value::from(self.to.trim()));
        let present = |v: &str| !v.trim().is_empty();
        for (name, v) in [("from", &self.from), ("profile", &self.profile)] {
            if present(v) {
                m.insert(name.into(), Value::from(v.trim()));
            }
        }
        for (name, v) in [
            ("maxUnavailableWorker", &self.max_unavailable_worker),
            ("maxUnavailableControlPlane", &self.max_unavailable_control_plane),
            ("maxSurge", &self.max_surge),
        ] {
            if present(v) {
                m.insert(name.into(), limit_json(v));
            }
        }
        for (name, d) in [
            ("drain", self.drain),
            ("drainForce", self.drain_force),
            ("drainDeleteLocalData", self.drain_delete_local_data),
        ] {
            match d {
                Drain::Default => {}
                Drain::On => _ = m.insert(name.into(), Value::Bool(true)),
                Drain::Off => _ = m.insert(name.into(), Value::Bool(false)),
            }
        }
        let timings: Map<String, Value> =
            self.timings.iter().filter(|(_, v)| present(v)).map(|(k, v)| (k.clone(), limit_json(v))).collect();
        if !timings.is_empty() {
            m.insert("timings".into(), Value::Object(timings));
        }
        let skip = self.skip_ids();
        if !skip.is_empty() {
            m.insert("skip".into(), Value::from(skip));
        }
        if let Some(since) = &self.since {
            // Not JSON: given as the text it is, so that the core names `since` in its error.
            let v = serde_json::from_str::<Value>(&since.json).unwrap_or_else(|_| Value::from(since.name.as_str()));
            m.insert("since".into(), v);
        }
        Value::Object(m).to_string()
    }

    /// The URL query that keeps these options (and the view's `extra` pairs), in a fixed order.
    pub fn to_query(&self, extra: &[(&str, &str)]) -> String {
        self.pairs(extra).iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&")
    }

    /// The options set, as `(name, value)` in a fixed order, then `extra`.
    pub fn pairs(&self, extra: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        let mut put = |k: &str, v: &str| {
            if !v.trim().is_empty() {
                pairs.push((k.to_owned(), v.trim().to_owned()));
            }
        };
        put("to", &self.to);
        put("from", &self.from);
        put("profile", &self.profile);
        put("maxUnavailableWorker", &self.max_unavailable_worker);
        put("maxUnavailableControlPlane", &self.max_unavailable_control_plane);
        put("maxSurge", &self.max_surge);
        for (name, d) in [
            ("drain", self.drain),
            ("drainForce", self.drain_force),
            ("drainDeleteLocalData", self.drain_delete_local_data),
        ] {
            if d != Drain::Default {
                put(name, d.name());
            }
        }
        for (k, v) in &self.timings {
            put(&format!("timings.{k}"), v);
        }
        put("skip", &self.skip_ids().join(","));
        for (k, v) in extra {
            put(k, v);
        }
        pairs
    }

    /// Read options from a URL query (`?to=1.29&maxSurge=1`); unknown keys are returned for the view.
    pub fn from_query(query: &str, mut base: Opts) -> (Opts, Vec<(String, String)>) {
        let mut rest = Vec::new();
        for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (k, v) = (decode(k), decode(v));
            match k.as_str() {
                "to" => base.to = v,
                "from" => base.from = v,
                "profile" => base.profile = v,
                "maxUnavailableWorker" => base.max_unavailable_worker = v,
                "maxUnavailableControlPlane" => base.max_unavailable_control_plane = v,
                "maxSurge" => base.max_surge = v,
                "drain" => base.drain = Drain::parse(&v),
                "drainForce" => base.drain_force = Drain::parse(&v),
                "drainDeleteLocalData" => base.drain_delete_local_data = Drain::parse(&v),
                "skip" => base.skip = v,
                _ => match k.strip_prefix("timings.") {
                    Some(t) if !t.is_empty() => {
                        base.timings.insert(t.to_owned(), v);
                    }
                    _ => rest.push((k, v)),
                },
            }
        }
        (base, rest)
    }
}

fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A timing's key as words: `drainTimeoutSeconds` is "Drain timeout" (the key stays in the field's title).
pub fn timing_label(key: &str) -> String {
    let key = key.strip_suffix("Seconds").unwrap_or(key);
    let mut out = String::new();
    for (i, c) in key.chars().enumerate() {
        if i == 0 {
            out.push(c.to_ascii_uppercase());
        } else if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube_preflight::parse::parse_json;
    use kube_preflight::UpgradeOptions;

    fn opts() -> Opts {
        let mut o = Opts {
            to: "1.29.2".into(),
            profile: "rke".into(),
            max_unavailable_worker: "10%".into(),
            ..Opts::default()
        };
        o.max_surge = "2".into();
        o.drain = Drain::Off;
        o.drain_force = Drain::On;
        o.drain_delete_local_data = Drain::Off;
        o.timings.insert("drainTimeoutSeconds".into(), "120".into());
        o
    }

    #[test]
    fn the_json_is_what_the_core_reads() {
        let node = parse_json("options", &opts().to_json()).unwrap();
        let o = UpgradeOptions::from_node(&node).unwrap();
        assert_eq!(o.to, "1.29.2");
        assert_eq!(o.profile.name(), "rke");
        assert_eq!(o.drain, Some(false));
        assert_eq!((o.drain_force, o.drain_delete_local_data), (Some(true), Some(false)));
        assert_eq!(o.timings.get("drainTimeoutSeconds"), Some(&120));
        assert!(o.max_surge.is_some() && o.max_unavailable_worker.is_some());
        // A typo reaches the core as text, which names the field.
        let bad = Opts { to: "1.29".into(), max_unavailable_worker: "ten".into(), ..Opts::default() };
        let e = match UpgradeOptions::from_node(&parse_json("options", &bad.to_json()).unwrap()) {
            Err(e) => e.to_string(),
            Ok(o) => kube_preflight::check_options(&o).unwrap_err().to_string(),
        };
        assert!(e.contains("maxUnavailableWorker"), "{e}");
    }

    #[test]
    fn the_url_keeps_the_options_and_gives_them_back() {
        let o = opts();
        let q = o.to_query(&[("tab", "plan"), ("theme", "dark")]);
        assert_eq!(q, "to=1.29.2&profile=rke&maxUnavailableWorker=10%25&maxSurge=2&drain=off&drainForce=on&drainDeleteLocalData=off&timings.drainTimeoutSeconds=120&tab=plan&theme=dark");
        // Families skipped by choice travel in the link and reach the core as a list.
        let (s, _) = Opts::from_query("?to=1.29.2&skip=helm-charts%2C%20aggregated-apis", Opts::default());
        assert_eq!(s.skip_ids(), ["helm-charts", "aggregated-apis"]);
        assert!(s.to_json().contains(r#""skip":["helm-charts","aggregated-apis"]"#), "{}", s.to_json());
        assert_eq!(s.to_query(&[]), "to=1.29.2&skip=helm-charts%2Caggregated-apis");
        // `?drainForce=true`, as a user may type it, is read as on.
        let (typed, _) = Opts::from_query("to=1.29&drainForce=true&drainDeleteLocalData=false", Opts::default());
        assert_eq!((typed.drain_force, typed.drain_delete_local_data), (Drain::On, Drain::Off));
        let (back, rest) = Opts::from_query(&format!("?{q}"), Opts::default());
        assert_eq!(back, o);
        assert_eq!(rest, [("tab".to_owned(), "plan".to_owned()), ("theme".to_owned(), "dark".to_owned())]);
        let (odd, _) = Opts::from_query("to=1%2E29+x&from=%ZZ&&=", Opts::default());
        assert_eq!(odd.to, "1.29 x");
        assert_eq!(odd.from, "%ZZ");
    }

    #[test]
    fn timing_keys_read_as_words() {
        assert_eq!(timing_label("drainTimeoutSeconds"), "Drain timeout");
        assert_eq!(timing_label("etcdMemberSeconds"), "Etcd member");
        assert_eq!(timing_label("addonsUpgradeSeconds"), "Addons upgrade");
    }
}
