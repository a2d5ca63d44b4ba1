//! How times are written for people, in one place so that every report reads alike: from
//! microseconds (a 3×3 search in `compare`) to hours (the fifty 24-puzzles in `bench korf24`).

/// `secs` in whichever of hours, minutes, seconds, milliseconds or microseconds reads best.
pub fn human_seconds(secs: f64) -> String {
    if secs == 0.0 {
        "0 s".to_string()
    } else if secs >= 2.0 * 3600.0 {
        format!("{:.1} h", secs / 3600.0)
    } else if secs >= 120.0 {
        format!("{:.1} min", secs / 60.0)
    } else if secs >= 1.0 {
        format!("{secs:.2} s")
    } else if secs >= 1e-3 {
        format!("{:.2} ms", secs * 1e3)
    } else {
        format!("{:.1} us", secs * 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::human_seconds;

    #[test]
    fn each_time_reads_in_its_own_unit() {
        assert_eq!(human_seconds(36_720.0), "10.2 h");
        assert_eq!(human_seconds(7_199.0), "120.0 min");
        assert_eq!(human_seconds(163.6), "2.7 min");
        assert_eq!(human_seconds(3.0), "3.00 s");
        assert_eq!(human_seconds(0.0123), "12.30 ms");
        assert_eq!(human_seconds(0.000_004_2), "4.2 us");
        assert_eq!(human_seconds(0.0), "0 s");
    }
}
