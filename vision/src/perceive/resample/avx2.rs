//! The rectifier's inner loops eight samples at a time, on processors with AVX2.
//!
//! They do what the plain loops of [`super::rectify`] do, with the same operations in the
//! same order and no fused multiply-adds, so every crop is the same to the bit (the tests
//! compare the two on every kind of quad). `rectify` asks [`usable`] first. Where AVX2 is
//! missing, the plain loops do all the work.

#[cfg(target_arch = "x86_64")]
pub(super) use wide::{average_row, sample_row, usable};

/// Never usable off x86-64.
#[cfg(not(target_arch = "x86_64"))]
pub(super) fn usable(_source_bytes: usize) -> bool {
    false
}

/// Off x86-64, takes no samples: the caller takes them all.
#[cfg(not(target_arch = "x86_64"))]
pub(super) unsafe fn sample_row(
    _pixels: &super::Pixels,
    _transform: &super::Transform,
    _row: &[f64; 3],
    _out: &mut super::Samples,
) -> usize {
    0
}

/// Off x86-64, averages no pixels: the caller averages them all.
#[cfg(not(target_arch = "x86_64"))]
pub(super) unsafe fn average_row(
    _upper: &super::Samples,
    _lower: &super::Samples,
    _out: &mut [u8],
) -> usize {
    0
}

#[cfg(target_arch = "x86_64")]
mod wide {
    use super::super::{Pixels, Samples, Transform};
    use std::arch::x86_64::*;

    /// Samples taken at once.
    const LANES: usize = 8;

    /// Whether the processor has AVX2 and every byte offset into a source of
    /// `source_bytes` bytes fits the `i32` lanes of a gather.
    pub(in super::super) fn usable(source_bytes: usize) -> bool {
        source_bytes <= i32::MAX as usize && std::arch::is_x86_feature_detected!("avx2")
    }

    /// A sample row's terms, each in every lane: the transform's second column times the
    /// row's `v`, and the transform's third column. Made once a row.
    struct RowTerms {
        row: [__m256d; 3],
        constant: [__m256d; 3],
    }

    impl RowTerms {
        #[inline]
        #[target_feature(enable = "avx2")]
        fn new(t: &Transform, row: &[f64; 3]) -> RowTerms {
            let lanes = |v: &[f64; 3]| [v[0], v[1], v[2]].map(|x| _mm256_set1_pd(x));
            RowTerms {
                row: lanes(row),
                constant: lanes(&t.constant),
            }
        }
    }

    /// Where four sample columns from `j` fall: `(x, y)`, as `f32`, half a pixel back.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn positions(t: &Transform, terms: &RowTerms, j: usize) -> (__m128, __m128) {
        let [cx, cy, cz] = &t.columns;
        let RowTerms { row, constant } = terms;
        let load = |v: &[f64]| {
            let four = &v[j..j + 4];
            // SAFETY: `four` holds four f64s.
            unsafe { _mm256_loadu_pd(four.as_ptr()) }
        };
        let tiny = _mm256_set1_pd(1e-12);
        let wz = _mm256_add_pd(_mm256_add_pd(load(cz), row[2]), constant[2]);
        let magnitude = _mm256_andnot_pd(_mm256_set1_pd(-0.0), wz);
        let wz = _mm256_blendv_pd(wz, tiny, _mm256_cmp_pd::<_CMP_LT_OQ>(magnitude, tiny));
        let x = _mm256_div_pd(
            _mm256_add_pd(_mm256_add_pd(load(cx), row[0]), constant[0]),
            wz,
        );
        let y = _mm256_div_pd(
            _mm256_add_pd(_mm256_add_pd(load(cy), row[1]), constant[1]),
            wz,
        );
        (_mm256_cvtpd_ps(x), _mm256_cvtpd_ps(y))
    }

    /// `f32::clamp` lane by lane: below `lo` becomes `lo`, above `hi` becomes `hi`, and
    /// a NaN stays one.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn clamp(v: __m256, lo: __m256, hi: __m256) -> __m256 {
        let v = _mm256_blendv_ps(v, lo, _mm256_cmp_ps::<_CMP_LT_OQ>(v, lo));
        _mm256_blendv_ps(v, hi, _mm256_cmp_ps::<_CMP_GT_OQ>(v, hi))
    }

    /// Takes the samples of one sample row (the transform's second column times the row's
    /// `v`) in runs of eight, as far as whole runs go, and returns how many it took; the
    /// caller takes the rest. A run with a position that is not a number, or that reads
    /// the source's last pixel (a four-byte read there would pass its end), is taken the
    /// plain way.
    #[target_feature(enable = "avx2")]
    pub(in super::super) fn sample_row(
        pixels: &Pixels,
        t: &Transform,
        plain_row: &[f64; 3],
        out: &mut Samples,
    ) -> usize {
        let n = t.columns[0].len();
        let terms = RowTerms::new(t, plain_row);
        let (zero, one, half) = (
            _mm256_setzero_ps(),
            _mm256_set1_ps(1.0),
            _mm256_set1_ps(0.5),
        );
        let (last_x, last_y) = (pixels.last_x as i32, pixels.last_y as i32);
        let (last_xf, last_yf) = (_mm256_set1_ps(last_x as f32), _mm256_set1_ps(last_y as f32));
        let (last_x, last_y) = (_mm256_set1_epi32(last_x), _mm256_set1_epi32(last_y));
        let three = _mm256_set1_epi32(3);
        let stride = _mm256_set1_epi32(pixels.stride as i32);
        let last_read = _mm256_set1_epi32(pixels.raw.len() as i32 - 4);
        let byte = _mm256_set1_epi32(0xFF);
        for i in (0..n / LANES).map(|r| r * LANES) {
            let (x_lo, y_lo) = positions(t, &terms, i);
            let (x_hi, y_hi) = positions(t, &terms, i + 4);
            let x = _mm256_sub_ps(_mm256_set_m128(x_hi, x_lo), half);
            let y = _mm256_sub_ps(_mm256_set_m128(y_hi, y_lo), half);
            let x = clamp(x, zero, last_xf);
            let y = clamp(y, zero, last_yf);
            let x0 = _mm256_cvttps_epi32(x);
            let y0 = _mm256_cvttps_epi32(y);
            let right = _mm256_and_si256(_mm256_cmpgt_epi32(last_x, x0), three);
            let down = _mm256_and_si256(_mm256_cmpgt_epi32(last_y, y0), stride);
            let fx = _mm256_sub_ps(x, _mm256_cvtepi32_ps(x0));
            let fy = _mm256_sub_ps(y, _mm256_cvtepi32_ps(y0));
            let at = _mm256_add_epi32(
                _mm256_mullo_epi32(y0, stride),
                _mm256_mullo_epi32(x0, three),
            );
            let below = _mm256_add_epi32(at, down);
            let farthest = _mm256_add_epi32(below, right);
            let nan = _mm256_or_ps(
                _mm256_cmp_ps::<_CMP_UNORD_Q>(x, x),
                _mm256_cmp_ps::<_CMP_UNORD_Q>(y, y),
            );
            let past_end = _mm256_cmpgt_epi32(farthest, last_read);
            if _mm256_movemask_ps(nan) != 0 || _mm256_movemask_epi8(past_end) != 0 {
                out.take_plain(i..i + LANES, pixels, t, plain_row);
                continue;
            }
            let gather = |o: __m256i| {
                // SAFETY: every offset is at most the source's length less four (checked
                // just above), so each four-byte read lies inside it.
                unsafe { _mm256_i32gather_epi32::<1>(pixels.raw.as_ptr() as *const i32, o) }
            };
            let (a, b, c, d) = (
                gather(at),
                gather(_mm256_add_epi32(at, right)),
                gather(below),
                gather(farthest),
            );
            let (one_fx, one_fy) = (_mm256_sub_ps(one, fx), _mm256_sub_ps(one, fy));
            for (ch, samples) in out.channels.iter_mut().enumerate() {
                let shift = _mm_cvtsi32_si128(8 * ch as i32);
                let channel = |v: __m256i| {
                    _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srl_epi32(v, shift), byte))
                };
                let top = _mm256_add_ps(
                    _mm256_mul_ps(channel(a), one_fx),
                    _mm256_mul_ps(channel(b), fx),
                );
                let bot = _mm256_add_ps(
                    _mm256_mul_ps(channel(c), one_fx),
                    _mm256_mul_ps(channel(d), fx),
                );
                let mixed = _mm256_add_ps(_mm256_mul_ps(top, one_fy), _mm256_mul_ps(bot, fy));
                let eight = &mut samples[i..i + LANES];
                // SAFETY: `eight` holds eight f32s.
                unsafe { _mm256_storeu_ps(eight.as_mut_ptr(), mixed) };
            }
        }
        n / LANES * LANES
    }

    /// Averages output pixels eight at a time, as far as whole runs go, into `out` (RGB
    /// bytes), and returns how many it averaged; the caller averages the rest.
    #[target_feature(enable = "avx2")]
    pub(in super::super) fn average_row(upper: &Samples, lower: &Samples, out: &mut [u8]) -> usize {
        let w = out.len() / 3;
        let quarter = _mm256_set1_ps(0.25);
        let mut bytes = [[0i32; LANES]; 3];
        for x in (0..w / LANES).map(|r| r * LANES) {
            for (ch, lanes) in bytes.iter_mut().enumerate() {
                let load = |v: &[f32], from: usize| {
                    let eight = &v[from..from + LANES];
                    // SAFETY: `eight` holds eight f32s.
                    unsafe { _mm256_loadu_ps(eight.as_ptr()) }
                };
                let (u, l) = (&upper.channels[ch], &lower.channels[ch]);
                let mut acc = _mm256_setzero_ps();
                for p in [load(u, x), load(u, w + x), load(l, x), load(l, w + x)] {
                    acc = _mm256_add_ps(acc, _mm256_mul_ps(p, quarter));
                }
                let rounded = round_half_away(acc);
                // `clamp(0, 255) as u8`: maxps gives its second operand for a NaN, so a
                // NaN becomes 0 as the cast makes it.
                let clamped = _mm256_min_ps(
                    _mm256_max_ps(rounded, _mm256_setzero_ps()),
                    _mm256_set1_ps(255.0),
                );
                // SAFETY: `lanes` holds eight i32s.
                unsafe {
                    _mm256_storeu_si256(
                        lanes.as_mut_ptr() as *mut __m256i,
                        _mm256_cvttps_epi32(clamped),
                    )
                };
            }
            for k in 0..LANES {
                let px = &mut out[(x + k) * 3..(x + k) * 3 + 3];
                px.copy_from_slice(&[bytes[0][k] as u8, bytes[1][k] as u8, bytes[2][k] as u8]);
            }
        }
        w / LANES * LANES
    }

    /// `f32::round` lane by lane (halves away from zero): the truncation, one further out
    /// where the part cut off is a half or more. The part cut off is exact in `f32`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn round_half_away(v: __m256) -> __m256 {
        let t = _mm256_round_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(v);
        let sign = _mm256_and_ps(v, _mm256_set1_ps(-0.0));
        let cut = _mm256_andnot_ps(_mm256_set1_ps(-0.0), _mm256_sub_ps(v, t));
        let further = _mm256_cmp_ps::<_CMP_GE_OQ>(cut, _mm256_set1_ps(0.5));
        _mm256_add_ps(
            t,
            _mm256_and_ps(further, _mm256_or_ps(_mm256_set1_ps(1.0), sign)),
        )
    }
}
