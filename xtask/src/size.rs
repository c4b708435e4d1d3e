//! `cargo xtask size`: what each shipped `.wasm` is made of. For each: its size raw and gzipped, its code
//! and data sections gzipped apart, and a profile of the code by crate and module, read from the name
//! section of cargo's own output (before wasm-bindgen and wasm-opt strip the names; wasm-opt shrinks every
//! part by roughly the same factor, so the shares hold).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::util::{gzip_size, Failure};

/// A module's sections: (id, start, length); custom sections' names are read apart.
struct Module<'a> {
    bytes: &'a [u8],
    sections: Vec<(u8, usize, usize)>,
}

fn leb(b: &[u8], i: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let byte = *b.get(*i)?;
        *i += 1;
        value |= u64::from(byte & 0x7f).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return Some(value);
        }
        shift += 7;
    }
}

fn name_at<'a>(b: &'a [u8], i: &mut usize) -> Option<&'a str> {
    let len = usize::try_from(leb(b, i)?).ok()?;
    let s = b.get(*i..i.checked_add(len)?)?;
    *i += len;
    std::str::from_utf8(s).ok()
}

impl<'a> Module<'a> {
    fn read(bytes: &'a [u8]) -> Option<Self> {
        if bytes.get(..4)? != b"\0asm" {
            return None;
        }
        let mut sections = Vec::new();
        let mut i = 8;
        while i < bytes.len() {
            let id = *bytes.get(i)?;
            i += 1;
            let len = usize::try_from(leb(bytes, &mut i)?).ok()?;
            sections.push((id, i, len));
            i = i.checked_add(len)?;
        }
        Some(Module { bytes, sections })
    }

    fn section(&self, id: u8) -> Option<&'a [u8]> {
        let (_, start, len) = self.sections.iter().find(|s| s.0 == id)?;
        self.bytes.get(*start..start + len)
    }

    fn custom(&self, name: &str) -> Option<&'a [u8]> {
        self.sections.iter().filter(|s| s.0 == 0).find_map(|(_, start, len)| {
            let body = self.bytes.get(*start..start + len)?;
            let mut i = 0;
            (name_at(body, &mut i)? == name).then(|| body.get(i..)).flatten()
        })
    }

    /// How many functions are imported (function indices count them first).
    fn imported_functions(&self) -> Option<u32> {
        let Some(b) = self.section(2) else { return Some(0) };
        let mut i = 0;
        let mut count = 0;
        for _ in 0..leb(b, &mut i)? {
            name_at(b, &mut i)?;
            name_at(b, &mut i)?;
            let kind = *b.get(i)?;
            i += 1;
            match kind {
                0 => {
                    leb(b, &mut i)?;
                    count += 1;
                }
                1 => {
                    i += 1;
                    let flags = *b.get(i)?;
                    i += 1;
                    leb(b, &mut i)?;
                    if flags & 1 == 1 {
                        leb(b, &mut i)?;
                    }
                }
                2 => {
                    let flags = *b.get(i)?;
                    i += 1;
                    leb(b, &mut i)?;
                    if flags & 1 == 1 {
                        leb(b, &mut i)?;
                    }
                }
                3 => i += 2,
                _ => return None,
            }
        }
        Some(count)
    }

    /// Each defined function's body (with its size prefix), in order.
    fn body_bytes(&self) -> Option<Vec<&'a [u8]>> {
        let b = self.section(10)?;
        let mut i = 0;
        let n = leb(b, &mut i)?;
        let mut out = Vec::new();
        for _ in 0..n {
            let before = i;
            let len = usize::try_from(leb(b, &mut i)?).ok()?;
            i = i.checked_add(len)?;
            out.push(b.get(before..i)?);
        }
        Some(out)
    }

    /// The name section's function names.
    fn function_names(&self) -> BTreeMap<u32, &'a str> {
        let mut names = BTreeMap::new();
        let Some(b) = self.custom("name") else { return names };
        let mut i = 0;
        while i < b.len() {
            let Some(&sub) = b.get(i) else { break };
            i += 1;
            let Some(len) = leb(b, &mut i).and_then(|l| usize::try_from(l).ok()) else { break };
            let end = i.saturating_add(len);
            if sub == 1 {
                let mut j = i;
                let count = leb(b, &mut j).unwrap_or(0);
                for _ in 0..count {
                    let (Some(index), Some(name)) = (leb(b, &mut j), name_at(b, &mut j)) else { break };
                    names.insert(u32::try_from(index).unwrap_or(u32::MAX), name);
                }
            }
            i = end;
        }
        names
    }
}

/// A symbol as people read it: Rust's legacy and v0 manglings demangled, without the hash; others as they
/// are. The wasm builds are mangled with v0 (`.cargo/config.toml`), whose names keep the generic arguments
/// an instantiation was made for (`alloc::vec::Vec<kube_preflight::model::Object>`); legacy names lose them.
fn readable(symbol: &str) -> String {
    format!("{:#}", rustc_demangle::demangle(symbol))
}

/// Whether wasm-bindgen removes the function from what it ships (its type descriptions, run at build time).
fn removed_by_bindgen(symbol: &str) -> bool {
    symbol.starts_with("__wbindgen_describe") || symbol.contains("WasmDescribe") || symbol.contains("describe_vector")
}

/// The first two components of a path (`core::slice` of `core::slice::sort::stable::quicksort::<T, F>`).
fn crate_and_module(path: &str) -> String {
    let path = path.split(['<', ' ']).next().unwrap_or(path);
    path.split("::").filter(|s| !s.is_empty()).take(2).collect::<Vec<_>>().join("::")
}

/// Where a function's code is counted: `crate::module`, an impl of a crate's type under the type's crate
/// (`<T as Trait>::method`, `<T>::method`; a closure's call under the closure's module), the standard
/// library's generic code by its module (each instantiation lands there, whoever asked).
fn bucket(symbol: &str) -> String {
    if symbol.starts_with("__wbindgen") || symbol.starts_with("__wbg") {
        return "wasm-bindgen glue".to_owned();
    }
    if !symbol.starts_with("_ZN") && !symbol.starts_with("_R") {
        return "(other)".to_owned();
    }
    let name = readable(symbol);
    let Some(inner) = name.strip_prefix('<') else { return crate_and_module(&name) };
    // The self type, its references, pointers and `dyn` taken off.
    let mut ty = inner;
    for prefix in ["&", "mut ", "*const ", "*mut ", "const ", "dyn "] {
        while let Some(rest) = ty.strip_prefix(prefix) {
            ty = rest;
        }
    }
    if ty.starts_with(['[', '(']) {
        return "(slices and tuples)".to_owned();
    }
    let path = crate_and_module(ty);
    if !path.contains("::") && path.len() <= 2 && path.starts_with(|c: char| c.is_ascii_uppercase()) {
        // `<&mut F as FnOnce>`: a generic parameter (a legacy name, its type lost).
        return "(generic closures and adapters)".to_owned();
    }
    format!("{path} (impls)")
}

/// One cargo output's code bytes per bucket (largest first), its code and its data section's size.
pub struct Profile {
    pub rows: Vec<(String, usize)>,
    pub code: usize,
    pub data: usize,
    /// Gzipped apart (bytes): the functions of our own crates (`kube_preflight*`, their derived impls and
    /// closures included), yaml-rust2's, the generic code of the standard library and the other crates
    /// instantiated for our types or closures (its name holds `kube_preflight`: `Vec<our type>`'s
    /// `extend`, an iterator's `fold` over our closure; code that exists because our code asked for it), the
    /// rest (the standard library, serde, hashbrown, wasm-bindgen, miniz_oxide, dlmalloc for themselves);
    /// then the data section.
    pub gzipped: [u64; 5],
}

/// The profile of one cargo output.
pub fn profile(file: &Path) -> Result<Profile, Failure> {
    let bytes = read(file)?;
    let module = module(&bytes, file)?;
    let imported = module.imported_functions().unwrap_or(0);
    let names = module.function_names();
    let bodies = module.body_bytes().unwrap_or_default();
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    let mut parts: [Vec<u8>; 4] = Default::default();
    for (i, body) in bodies.iter().enumerate() {
        let index = imported.saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
        let name = names.get(&index).copied().unwrap_or("(unnamed)");
        if !removed_by_bindgen(name) {
            let b = bucket(name);
            let part = if b.starts_with("kube_preflight") {
                0
            } else if b.starts_with("yaml_rust2") {
                1
            } else if name.contains("kube_preflight") {
                2
            } else {
                3
            };
            if let Some(p) = parts.get_mut(part) {
                p.extend_from_slice(body);
            }
            *by.entry(b).or_default() += body.len();
        }
    }
    let code: usize = by.values().sum();
    let data_bytes = module.section(11).unwrap_or_default();
    let data = data_bytes.len();
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let [own, yaml, ours, rest] = &parts;
    let gzipped = [gz(own)?, gz(yaml)?, gz(ours)?, gz(rest)?, gz(data_bytes)?];
    Ok(Profile { rows, code, data, gzipped })
}

fn read(file: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(file).map_err(|e| Failure::new(format!("cannot read {}: {e}", file.display())))
}

fn module<'a>(bytes: &'a [u8], file: &Path) -> Result<Module<'a>, Failure> {
    Module::read(bytes).ok_or_else(|| Failure::new(format!("{}: not a wasm module", file.display())))
}

/// The gzipped size of `bytes` (`gzip -9`, as the shipped files are measured).
fn gz(bytes: &[u8]) -> Result<u64, Failure> {
    if bytes.is_empty() {
        return Ok(0);
    }
    let tmp = std::env::temp_dir().join(format!("kp-size-part-{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| Failure::new(format!("{}: {e}", tmp.display())))?;
    let size = gzip_size(&tmp);
    let _ = std::fs::remove_file(&tmp);
    size
}

/// Code no shipped `.wasm` needs, by what its function names hold, and what to write instead: each was
/// removed once (ARCHITECTURE.md, "Size") and comes back with one line (a `{}` of an `f64`, a
/// `.to_uppercase()`), reached by routes a look at the sources misses.
const UNWANTED: [(&[&str], &str); 2] = [
    (
        &["flt2dec"],
        "the standard library's float formatting (an f64 written by `{}` or `{:.N}`): write it with serde_json, \
         JavaScript's Number, or the dashboard's view::fixed and view::num",
    ),
    (
        &["unicode_data", "conversions"],
        "the Unicode case tables (`to_uppercase`, `to_lowercase`): on ASCII text use `to_ascii_uppercase` and \
         `to_ascii_lowercase`",
    ),
];

/// What of [`UNWANTED`] each cargo output holds, one line each: `name: function: what to write instead`.
pub fn unwanted(shipped_files: &[(&str, PathBuf, PathBuf)]) -> Result<Vec<String>, Failure> {
    let mut found = Vec::new();
    for (name, _, cargo_output) in shipped_files {
        let bytes = read(cargo_output)?;
        let names = module(&bytes, cargo_output)?.function_names();
        for (parts, instead) in UNWANTED {
            if let Some(f) = names.values().find(|f| parts.iter().all(|p| f.contains(p))) {
                found.push(format!("{name}: {f}: {instead}"));
            }
        }
    }
    Ok(found)
}

/// A shipped `.wasm`'s size, gzipped whole and by section (code, data, the rest).
pub fn shipped(file: &Path) -> Result<[u64; 4], Failure> {
    let bytes = read(file)?;
    let module = module(&bytes, file)?;
    let whole = gzip_size(file)?;
    let code = gz(module.section(10).unwrap_or_default())?;
    let data = gz(module.section(11).unwrap_or_default())?;
    Ok([whole, code, data, bytes.len() as u64])
}

/// Print the sizes and the profile of each shipped wasm, with cargo's output it was built from.
pub fn report(shipped_files: &[(&str, PathBuf, PathBuf)], budget: u64) -> Result<(), Failure> {
    println!("\nWebAssembly sizes (gzip -9), against the budget of {budget} bytes:");
    println!("  {:<18} {:>10} {:>10} {:>10} {:>10}  over budget", "", "raw", "gzipped", "code gz", "data gz");
    for (name, file, _) in shipped_files {
        let [whole, code, data, raw] = shipped(file)?;
        let over = whole.saturating_sub(budget);
        println!(
            "  {name:<18} {raw:>10} {whole:>10} {code:>10} {data:>10}  {}",
            if over > 0 { over.to_string() } else { "-".into() }
        );
    }
    for (name, _, cargo_output) in shipped_files {
        let Profile { rows, code, data, gzipped: [own, yaml, ours, rest, data_gz] } = profile(cargo_output)?;
        println!(
            "\n{name}: code by crate and module ({code} bytes before wasm-opt, without what wasm-bindgen removes; data {data} bytes), largest first:"
        );
        println!(
            "  gzipped apart, before wasm-opt: our crates' functions {own}, the generic code instantiated for our \
             types and closures {ours}, yaml-rust2's {yaml}, the rest (the standard library, serde, hashbrown, \
             wasm-bindgen, ... for themselves) {rest}; data {data_gz}"
        );
        let mut shown = 0;
        for (bucket, size) in rows.iter().take(24) {
            shown += size;
            println!("  {:>8} {:>5.1}%  {bucket}", size, 100.0 * *size as f64 / code.max(1) as f64);
        }
        println!("  {:>8} {:>5.1}%  (the rest)", code - shown, 100.0 * (code - shown) as f64 / code.max(1) as f64);
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn buckets() {
        // Legacy names.
        assert_eq!(bucket("_ZN4core5slice4sort6stable9quicksort17h0123456789abcdefE"), "core::slice");
        assert_eq!(bucket("_ZN14kube_preflight4plan5build17h44af6182107a5826E"), "kube_preflight::plan");
        assert_eq!(
            bucket(
                "_ZN68_$LT$kube_preflight..model..Object$u20$as$u20$core..clone..Clone$GT$5clone17he704f89b94b1b9a5E"
            ),
            "kube_preflight::model (impls)"
        );
        assert_eq!(bucket("__wbindgen_exn_store"), "wasm-bindgen glue");
        assert!(removed_by_bindgen("__wbindgen_describe___wbg_new_1"));
        assert_eq!(
            bucket("_ZN51_$LT$$RF$mut$u20$F$u20$as$u20$core..ops..FnOnce$GT$9call_once17h0123456789abcdefE"),
            "(generic closures and adapters)"
        );
        // v0 names: the standard library's own, and its generic code for one of our types.
        assert_eq!(bucket("_RNvNtNtNtNtCsgXGp5Oqx2Ny_4core3num7flt2dec8strategy6dragon15format_shortest"), "core::num");
        let vec_of_ours = "_RNvMs_NtCs1_5alloc3vecINtB4_3VecNtNtCs2_14kube_preflight5model6ObjectE4push";
        assert_eq!(readable(vec_of_ours), "<alloc::vec::Vec<kube_preflight::model::Object>>::push");
        assert_eq!(bucket(vec_of_ours), "alloc::vec (impls)");
    }

    #[test]
    fn unwanted_code_is_named() {
        // (module (func)) naming its function as the standard library's float formatting.
        let name = b"\x04name\x01\x40\x01\x00\x3d_RNvNtNtNtCs0_4core3num7flt2dec8strategy6dragon14format_exact";
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        m.extend([1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 10, 4, 1, 2, 0, 0x0b, 0]);
        m.push(name.len() as u8);
        m.extend(name);
        let dir = std::env::temp_dir().join(format!("kp-unwanted-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("a.wasm");
        std::fs::write(&file, &m).expect("write");
        let found = unwanted(&[("npm package", file.clone(), file.clone())]).expect("read");
        assert!(
            matches!(found.as_slice(), [f] if f.starts_with("npm package: _RNv") && f.contains("float formatting")),
            "{found:?}"
        );
        m.truncate(m.len() - name.len() - 2);
        std::fs::write(&file, &m).expect("write");
        assert!(unwanted(&[("npm package", file.clone(), file)]).expect("read").is_empty());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn reads_a_module() {
        // (module (func) (func) (data ...)) with a name section naming function 1.
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        m.extend([1, 4, 1, 0x60, 0, 0]); // type: () -> ()
        m.extend([3, 3, 2, 0, 0]); // two functions
        m.extend([10, 7, 2, 2, 0, 0x0b, 2, 0, 0x0b]); // two empty bodies
        let name = b"\x04name\x01\x09\x01\x01\x06_ZN1aE";
        m.push(0);
        m.push(name.len() as u8);
        m.extend(name);
        let module = Module::read(&m).expect("a module");
        assert_eq!(module.body_bytes(), Some(vec![&[2u8, 0, 0x0b][..], &[2, 0, 0x0b][..]]));
        assert_eq!(module.imported_functions(), Some(0));
        assert_eq!(module.function_names().get(&1), Some(&"_ZN1aE"));
    }
}
