import { describe, expect, it } from 'vitest';
import { writeRefusal } from './output-target.js';

const user = { uid: 1000, gid: 1000, groups: [1000, 27] };
const root = { uid: 0, gid: 0, groups: [0] };
const file = (mode: number, uid: number, gid: number) => ({ mode: 0o100000 | mode, uid, gid });

describe('writeRefusal: who may write an existing output file', () => {
  it('applies the owner, group or others bits, as the kernel does for a user', () => {
    const cases: Array<[string, ReturnType<typeof file>, string | undefined]> = [
      ['own file, writable', file(0o644, 1000, 1000), undefined],
      ['own file, read-only', file(0o444, 1000, 1000), 'it is read-only (mode 0444)'],
      // The owner's bits decide for the owner, even when the group's or others' would allow it.
      ['own file, others may write', file(0o466, 1000, 1000), 'it is read-only (mode 0466)'],
      ['group file, group-writable', file(0o664, 2000, 27), undefined],
      [
        'group file, not group-writable',
        file(0o646, 2000, 27),
        'its group (27) may not write it (mode 0646, owned by user 2000)',
      ],
      [
        'file of another user',
        file(0o644, 2000, 2000),
        'it belongs to user 2000 and group 2000, and others may not write it (mode 0644)',
      ],
      ['file of another user, writable by all', file(0o666, 2000, 2000), undefined],
    ];
    for (const [name, stats, refusal] of cases) expect(writeRefusal(stats, user), name).toBe(refusal);
  });

  it('lets root write any file with a write bit, and refuses it a file with none', () => {
    expect(writeRefusal(file(0o600, 2000, 2000), root)).toBeUndefined();
    expect(writeRefusal(file(0o002, 2000, 2000), root)).toBeUndefined();
    expect(writeRefusal(file(0o444, 0, 0), root)).toBe('it is read-only (mode 0444), even for root');
    expect(writeRefusal(file(0o4555, 2000, 2000), root)).toBe('it is read-only (mode 4555), even for root');
  });
});
