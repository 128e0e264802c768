/** The namer's rules, and the comment text of user names. */
import { describe, expect, test } from 'vitest';
import { commentText, Namer } from '../../src/link/wgsl-names.js';

describe('Namer', () => {
  test('a name that is a plain identifier is kept; others are sanitized', () => {
    const namer = Namer.module();
    expect(['x', 'Abc_1', 'a9', 'gain0'].map((n) => namer.call(n))).toEqual([
      'x',
      'Abc_1',
      'a9',
      'gain0',
    ]);
    expect(['a-b', '__x', '_', '9lives', '', 'é'].map((n) => namer.call(n))).toEqual([
      'a_b',
      '_x',
      'v__',
      'v_9lives',
      'v_',
      'v___2',
    ]);
  });

  test('taken names, WGSL words and derived names are avoided', () => {
    const namer = Namer.module(['sc_a']);
    expect(namer.call('sc_a')).toBe('sc_a_2');
    expect(namer.call('loop')).toBe('loop_2');
    expect(namer.call('v', (n) => [`${n}_0`, `${n}_1`])).toBe('v');
    expect(namer.call('v_1')).toBe('v_1_2');
    expect([...namer.taken]).toEqual(['sc_a', 'sc_a_2', 'loop_2', 'v', 'v_0', 'v_1', 'v_1_2']);
  });

  test("an inner namer avoids its parent's names without copying them", () => {
    const module = Namer.module(['fn_f', 'k_main']);
    const a = module.inner();
    const b = module.inner();
    expect(a.call('fn_f')).toBe('fn_f_2');
    // Each function's names are its own.
    expect(b.call('fn_f')).toBe('fn_f_2');
    expect(a.call('fn_f')).toBe('fn_f_3');
    // Struct and helper prefixes stay the module's.
    expect(a.call('S_x')).toBe('l_S_x');
    expect(a.call('H_y')).toBe('l_H_y');
    expect([...a.taken]).toEqual(['fn_f', 'k_main', 'fn_f_2', 'fn_f_3', 'l_S_x', 'l_H_y']);
    // The parent names nothing more once an inner namer reads its names.
    expect(() => module.call('late')).toThrow(/inner namer/);
  });

  test('a namer over a set reads it in place and keeps its own names apart', () => {
    const taken = new Set(['k_main', 'launch']);
    const one = Namer.over(taken);
    const two = Namer.over(taken);
    expect(one.call('k_main')).toBe('k_main_2');
    expect(two.call('k_main')).toBe('k_main_2');
    expect([...taken]).toEqual(['k_main', 'launch']);
    expect([...one.taken]).toEqual(['k_main', 'launch', 'k_main_2']);
  });
});

describe('commentText', () => {
  test('text with nothing to escape is returned as it is', () => {
    const text = 'src/m1.sycl.ts#k1 é 😀';
    expect(commentText(text)).toBe(text);
  });

  test('control characters, line separators and backslashes are escaped', () => {
    expect(commentText('a\nb\u2028c\\d\u0085e\u007f')).toBe(
      'a\\u{a}b\\u{2028}c\\u{5c}d\\u{85}e\\u{7f}',
    );
  });
});
