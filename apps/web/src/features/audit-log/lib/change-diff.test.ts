import { describe, expect, it } from 'vitest';
import { changeDiff, compactValue } from './change-diff';

describe('changeDiff', () => {
  it('splits an update into changed and unchanged fields, nested values compared whole', () => {
    const diff = changeDiff(
      { name: 'A', tags: ['x'], owner: { id: 1 }, gone: true, same: null },
      { name: 'B', tags: ['x'], owner: { id: 2 }, added: 0, same: null },
    );
    expect(diff.sides).toBe('both');
    expect(diff.changed).toEqual([
      { field: 'name', before: 'A', after: 'B' },
      { field: 'owner', before: '{"id":1}', after: '{"id":2}' },
      { field: 'added', after: '0' },
      { field: 'gone', before: 'true' },
    ]);
    expect(diff.unchanged).toEqual([
      { field: 'tags', before: '["x"]', after: '["x"]' },
      { field: 'same', before: 'null', after: 'null' },
    ]);
  });

  it('lists a created or deleted entity by its one side, every field as changed', () => {
    expect(changeDiff(null, { name: 'New' })).toEqual({
      sides: 'after',
      changed: [{ field: 'name', after: 'New' }],
      unchanged: [],
    });
    expect(changeDiff({ name: 'Old' }, undefined)).toEqual({
      sides: 'before',
      changed: [{ field: 'name', before: 'Old' }],
      unchanged: [],
    });
    expect(changeDiff(null, null)).toEqual({ sides: 'none', changed: [], unchanged: [] });
  });

  it('shows a bare value as one field, and text apart from JSON', () => {
    expect(changeDiff('on', 'off').changed).toEqual([
      { field: 'value', before: 'on', after: 'off' },
    ]);
    expect(compactValue('null')).toBe('null');
    expect(compactValue(null)).toBe('null');
    expect(compactValue({ a: [1, { b: 'c' }] })).toBe('{"a":[1,{"b":"c"}]}');
  });
});
