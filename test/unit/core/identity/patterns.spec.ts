import { describe, expect, it } from 'vitest'
import { createToolFilter } from '../../../../src/core/identity/patterns.ts'

describe('include / exclude', () => {
  it.each([
    [[], [], 'read', true],
    [[], ['todo_write'], 'todo_write', false],
    [[], ['todo_*'], 'todo_read', false],
    [[], ['*_write'], 'todo_write', false],
    [['read', 'grep'], [], 'read', true],
    [['read', 'grep'], [], 'bash', false],
    [['job_*'], ['job_kill'], 'job_output', true],
    [['job_*'], ['job_kill'], 'job_kill', false],
    // Regex metacharacters match literally.
    [['a.b'], [], 'axb', false],
    [['a.b'], [], 'a.b', true],
    [['(x)|y'], [], 'y', false],
    [['(x)|y'], [], '(x)|y', true],
    // Anchored: a pattern matches the whole name.
    [['read'], [], 'read_image', false],
  ])('include %j, exclude %j: %s tracked = %s', (include, exclude, name, tracked) => {
    expect(createToolFilter(include, exclude)(name)).toBe(tracked)
  })
})
