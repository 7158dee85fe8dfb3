/**
 * A progress line on stderr while session logs are read: `dsh-brake: reading session logs [###   ] 12/340, 328 left`, rewritten in
 * place. Only when stderr is a terminal and there is more than one log, so pipes, files and CI logs stay clean; it is
 * erased when reading ends, before the report.
 * @module dsh-brake/analyze/progress-line
 */

/** What the progress line needs of a stream. */
export interface ProgressStream {
  readonly isTTY?: boolean
  write(text: string): unknown
}

/** The line being drawn: each log read moves it on; `end` erases it. */
export interface ProgressLine {
  update(done: number): void
  end(): void
}

/** A progress line for `total` logs on `stream` (a no-op when it is not a terminal). */
export function createProgressLine(stream: ProgressStream, total: number): ProgressLine {
  if (stream.isTTY !== true || total <= 1) return { update() {}, end() {} }
  const width = 24
  const draw = (done: number): void => {
    const filled = Math.round(done / total * width)
    stream.write(`\r\u001B[2Kdsh-brake: reading session logs [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}, ${total - done} left`)
  }
  draw(0)
  return {
    update: draw,
    end: () => void stream.write('\r\u001B[2K'),
  }
}
