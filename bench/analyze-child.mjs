// `dsh-brake analyze` as a user runs it (the built command), timed, written last on stderr as one JSON line: its wall
// time, the process's peak resident memory (worker threads included), and, when run with --expose-gc, the peak of
// what the main thread keeps (JavaScript heap and buffers after a full collection, every 250 ms): the results and
// figures a run holds as logs are read, which must not grow with their number.
const started = performance.now()
let kept = 0
const gc = globalThis.gc
const sample = () => {
  gc?.()
  const { heapUsed, external } = process.memoryUsage()
  kept = Math.max(kept, heapUsed + external)
}
if (gc !== undefined) setInterval(sample, 250).unref()
process.argv = [process.argv[0], 'dsh-brake', ...process.argv.slice(2)]
process.on('exit', () => {
  if (gc !== undefined) sample()
  process.stderr.write(`\n${JSON.stringify({ wallMs: performance.now() - started, maxRssKiB: process.resourceUsage().maxRSS, keptKiB: kept / 1024 })}\n`)
})
await import('../dist/cli/main.js')
