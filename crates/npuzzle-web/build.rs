//! Marks the browser test ignored (with the reason, visible in the test summary) when Debian's
//! Chromium and ChromeDriver are not installed and this is not CI, where they are required.

use std::path::Path;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(browser_missing)");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-changed=build.rs");
    // Re-checked when either program appears or changes.
    println!("cargo::rerun-if-changed={CHROMIUM}");
    println!("cargo::rerun-if-changed={CHROMEDRIVER}");
    // Installing or removing them changes the directory, whatever the files' own times.
    println!("cargo::rerun-if-changed=/usr/bin");
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
    let present = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !ci && !present {
        println!("cargo::rustc-cfg=browser_missing");
    }
}
