/** Samples RSS while a task runs and reports the peak, to show memory staying flat. */
export async function withPeakRss<T>(
  task: () => Promise<T> | T,
): Promise<{ result: T; peakMb: number; startMb: number }> {
  const startMb = process.memoryUsage().rss / 1e6;
  let peak = startMb;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss / 1e6);
  }, 10);
  try {
    const result = await task();
    peak = Math.max(peak, process.memoryUsage().rss / 1e6);
    return { result, peakMb: peak, startMb };
  } finally {
    clearInterval(timer);
  }
}
