//! Work split over the machine's cores: the per-piece stages (refining, embedding, finding
//! tokens) cut their list of pieces into one contiguous share per core and run the shares
//! at once, each with its own network runs. The detector's one large run is split the same
//! way, into two overlapping tiles of the input ([`super::detect::DetectorRun`]), and so is
//! the frame's resize ([`super::resample::area_resize`]). (tract's own thread pool made the
//! detector slower here, 61 ms against 47, so it is not used.)

use std::sync::OnceLock;

/// Most threads one analysis uses (the speed target is for two cores; more helps little
/// with batches this small).
const MAX_THREADS: usize = 4;

/// Threads to use: `TABLELENS_THREADS` when set to a number, else the machine's
/// parallelism; at most [`MAX_THREADS`].
pub fn threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| {
        std::env::var("TABLELENS_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
            .unwrap_or(1)
            .clamp(1, MAX_THREADS)
    })
}

/// Runs `f` on contiguous shares of `items`, at most one per thread and none smaller than
/// `min_share`, and concatenates the results in order. The first error wins.
pub fn split<T, R, E, F>(items: &[T], min_share: usize, f: F) -> Result<Vec<R>, E>
where
    T: Sync,
    R: Send,
    E: Send,
    F: Fn(&[T]) -> Result<Vec<R>, E> + Sync,
{
    let shares = threads().min(items.len() / min_share.max(1)).max(1);
    if shares == 1 {
        return f(items);
    }
    let size = items.len().div_ceil(shares);
    let chunks: Vec<&[T]> = items.chunks(size).collect();
    let f = &f;
    let results: Vec<Result<Vec<R>, E>> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks[1..]
            .iter()
            .map(|chunk| s.spawn(move || f(chunk)))
            .collect();
        let mut out = vec![f(chunks[0])];
        for h in handles {
            // A worker only panics on a bug; pass the panic on rather than hide it.
            out.push(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        out
    });
    let mut all = Vec::with_capacity(items.len());
    for r in results {
        all.extend(r?);
    }
    Ok(all)
}

/// Runs `f` on one contiguous share of `items` per core (none smaller than `min_share`);
/// the shares' results in order.
pub fn shares<T: Sync, R: Send>(
    items: &[T],
    min_share: usize,
    f: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let out: Result<Vec<R>, std::convert::Infallible> =
        split(items, min_share, |share| Ok(vec![f(share)]));
    match out {
        Ok(v) => v,
        Err(never) => match never {},
    }
}

/// Maps `f` over `items` on every core, keeping the order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    shares(items, 1, |share| share.iter().map(&f).collect::<Vec<R>>())
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_order_and_covers_every_item() {
        let items: Vec<u32> = (0..103).collect();
        let out: Result<Vec<u32>, ()> = split(&items, 4, |c| Ok(c.iter().map(|x| x * 2).collect()));
        assert_eq!(
            out.unwrap(),
            items.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
    }

    #[test]
    fn split_passes_an_error_on() {
        let items: Vec<u32> = (0..50).collect();
        let out: Result<Vec<u32>, String> = split(&items, 1, |c| {
            if c.contains(&49) {
                Err("bad".into())
            } else {
                Ok(c.to_vec())
            }
        });
        assert_eq!(out, Err("bad".to_string()));
    }

    #[test]
    fn map_keeps_order() {
        let items: Vec<u32> = (0..9).collect();
        assert_eq!(map(&items, |x| x + 1), (1..10).collect::<Vec<u32>>());
    }

    #[test]
    fn split_of_nothing_is_nothing() {
        let out: Result<Vec<u8>, ()> = split(&[] as &[u8], 8, |c| Ok(c.to_vec()));
        assert!(out.unwrap().is_empty());
    }
}
