/**
 * Stop mode writes a stop's reason to stderr for the person at the terminal. Tests that stop turns hold those writes
 * back (the run's own output stays clean) and read them.
 */
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest'

/** Hold back stderr around each test of the calling file; returns what the brake wrote there in the current test. */
export function captureStderr(): () => string[] {
  let stderr: MockInstance<typeof process.stderr.write> | undefined
  beforeEach(() => {
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  })
  afterEach(() => {
    stderr?.mockRestore()
  })
  return () => (stderr?.mock.calls ?? []).map(([line]) => String(line)).filter(line => line.startsWith('dsh-brake'))
}
