/**
 * What `npm run bench` reports: a table of figures, each row its value, its target and whether the value met it, and
 * each section's data, which bench/run.ts writes to bench/results/latest.json.
 * @module
 */

/** A row of the table: the figure, its value, its target, and `met`, `MISSED` or nothing (no target). */
export type Row = [string, string, string, string]

/** The rows and data the sections give, in the order they run. */
export class Report {
  /** Each section's data, by name: bench/results/latest.json's `figures`. */
  readonly figures: Record<string, unknown> = {}
  readonly rows: Row[] = []

  /** A row; `met` is undefined for a figure without a target (an indented detail line, most often). */
  row(name: string, value: string, target: string, met: boolean | undefined): void {
    this.rows.push([name, value, target, met === undefined ? '' : met ? 'met' : 'MISSED'])
  }

  /** The table as printed: a header, then the rows, each column padded to its widest cell. */
  table(): string[] {
    const header: Row = ['figure', 'value', 'target', '']
    const widths = [0, 1, 2, 3].map(c => Math.max(...this.rows.map(r => r[c]!.length), header[c]!.length))
    const line = (r: string[]): string => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()
    return [line(header), ...this.rows.map(line)]
  }
}

/** One section of the benchmark: it measures, and adds its rows and data to `report`. */
export type Section = (report: Report) => Promise<void>

/** A ratio as the table shows it: `1.23×`. */
export const ratio = (value: number): string => `${value.toFixed(2)}×`
