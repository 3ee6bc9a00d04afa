import type { Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { assistant, toolTurn, user } from './__fixtures__/messages.js';
import { applicableProbes, commandCharacters, extractProbes, requestCharacters } from './probes.js';

describe('extractProbes', () => {
  it('derives the task, the newest request, paths, commands and error lines', () => {
    const messages: Message[] = [
      { role: 'system', content: [{ type: 'text', text: 'system prompt' }] },
      user('Fix   the bug\nin parser.py'),
      ...toolTurn('1', 'bash', { command: 'python src/parser.py\necho done' }, 'ValueError: bad token\nok'),
      ...toolTurn('2', 'str_replace_editor', { command: 'view', path: 'src/parser.py' }, 'contents'),
      user('Also add a test.'),
      ...toolTurn(
        '3',
        'bash',
        { command: 'pytest tests/test_parser.py' },
        'FAILED tests/test_parser.py::test_x',
      ),
      assistant('Done.'),
    ];
    expect(extractProbes({ messages })).toEqual([
      { kind: 'task', text: 'Fix the bug in parser.py' },
      { kind: 'request', text: 'Also add a test.' },
      { kind: 'file', text: 'src/parser.py' },
      { kind: 'command', text: 'python src/parser.py' },
      { kind: 'error', text: 'ValueError: bad token' },
      { kind: 'file', text: 'tests/test_parser.py' },
      { kind: 'command', text: 'pytest tests/test_parser.py' },
      { kind: 'error', text: 'FAILED tests/test_parser.py::test_x' },
    ]);
  });

  it('has no request probe when the task is the newest request, and cuts long texts', () => {
    const task = `Please ${'do this '.repeat(100)}`;
    const command = `echo ${'x'.repeat(300)}`;
    const probes = extractProbes({ messages: [user(task), ...toolTurn('1', 'bash', { command }, 'ok')] });
    expect(probes.map((probe) => probe.kind)).toEqual(['task', 'command']);
    expect(probes[0]!.text).toHaveLength(requestCharacters);
    expect(probes[1]!.text).toHaveLength(commandCharacters);
  });

  it('takes the scalar arguments of tau-bench expected actions, long enough to be telling', () => {
    const details = {
      expectedActions: [
        {
          name: 'book_reservation',
          kwargs: {
            user_id: 'mia_li_3668',
            flights: [{ flight_number: 'HAT136', date: '2024-05-20' }],
            insurance: 'no',
            payment_methods: [{ payment_id: 'certificate_7504069', amount: 250 }, { amount: 5 }],
            direct: true,
          },
        },
        { name: 'get_user_details', kwargs: { user_id: 'mia_li_3668' } },
      ],
    };
    const probes = extractProbes({ messages: [user('Book a flight')], details });
    expect(probes.filter((probe) => probe.kind === 'expected-action').map((probe) => probe.text)).toEqual([
      'mia_li_3668',
      'HAT136',
      '2024-05-20',
      'certificate_7504069',
      '250',
    ]);
  });
});

describe('applicableProbes', () => {
  it('separates probes the conversation never contains', () => {
    const messages = [user('Book flight HAT136'), assistant('Booked.')];
    const { applicable, absent } = applicableProbes(
      [
        { kind: 'expected-action', text: 'HAT136' },
        { kind: 'expected-action', text: 'HAT999' },
      ],
      messages,
    );
    expect(applicable.map((probe) => probe.text)).toEqual(['HAT136']);
    expect(absent.map((probe) => probe.text)).toEqual(['HAT999']);
  });
});
