//! Reading + checks + plan: any bytes, under every profile, through `check()` and through a `Session` fed in
//! chunks cut where the input says. Nothing may panic, and both must give the same report or error.
#![no_main]

use kube_preflight::{check, Input, Profile, Session, UpgradeOptions};
use libfuzzer_sys::fuzz_target;

const PROFILES: [Profile; 6] =
    [Profile::Kubeadm, Profile::Rke, Profile::RkeLegacy, Profile::Kops, Profile::Openshift, Profile::GkeBaremetal];

fuzz_target!(|data: &[u8]| {
    // The first byte picks the profile and the target; the second the chunk size; the rest is the input.
    let (head, body) = data.split_at(data.len().min(2));
    let pick = head.first().copied().unwrap_or(0);
    let chunk = usize::from(head.get(1).copied().unwrap_or(7)).max(1);
    let profile = PROFILES[usize::from(pick) % PROFILES.len()];
    let mut o = UpgradeOptions::new(if profile == Profile::Openshift { "4.16.3" } else { "1.29.2" });
    o.profile = profile;
    if pick & 0x80 != 0 {
        o.from = Some(if profile == Profile::Openshift { "4.14.1".into() } else { "1.26.3".into() });
    }
    let whole = match check(&[Input::new("fuzz.yaml", body)], &o) {
        Ok(r) => r.to_json(),
        Err(e) => format!("error: {e}"),
    };
    let parts = (|| -> Result<String, kube_preflight::Error> {
        let mut s = Session::new(o.clone())?;
        // An empty file is one empty chunk (no chunk at all would be no file).
        s.push("fuzz.yaml", &[])?;
        for c in body.chunks(chunk) {
            s.push("fuzz.yaml", c)?;
        }
        Ok(s.finish()?.to_json())
    })()
    .unwrap_or_else(|e| format!("error: {e}"));
    assert_eq!(whole, parts, "check() and Session disagree");
});
