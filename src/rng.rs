//! SplitMix64 (Steele, Lea & Flood, OOPSLA 2014), the one small random
//! generator of the library: the retrieval permutation tests and the
//! flowchart neighbourhood search draw from it, so that a seed gives the
//! same numbers on every machine.

/// The state advances by 0x9E3779B97F4A7C15 and each output is the state
/// mixed by two xor-shift-multiply rounds and a final xor-shift.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn reference_outputs() {
        // The first outputs from states 0 and 1234567 of the reference
        // implementation (Vigna's splitmix64.c).
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut r = SplitMix64(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
        assert!((0..100).all(|_| r.below(7) < 7));
        assert_eq!(r.below(0), 0);
    }
}
