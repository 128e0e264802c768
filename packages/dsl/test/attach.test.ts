import { expect, test } from 'vitest';
import {
  attach,
  attachedPrograms,
  bindingOf,
  declarationOf,
  latestDeclaration,
  originOf,
  PROGRAM_FORMAT_VERSION,
  type Program,
  relink,
  specializationId,
  u32,
} from '../src/index.js';

const program = (): Program => ({
  version: PROGRAM_FORMAT_VERSION,
  images: [],
  programGlobals: { size: 0, globals: {} },
});

test('a relinked program takes over every host object of the program it replaces, old versions included', () => {
  const first = program();
  const oldFactor = specializationId(u32, 7);
  const scale = {};
  attach(first, [
    [oldFactor, 'src/a.sycl.ts#factor'],
    [scale, 'src/a.sycl.ts#scale'],
  ]);
  expect(latestDeclaration(oldFactor)).toBe(oldFactor);
  expect(originOf(first)).toBe(first);

  // An edit: the program module relinks first, then the edited module attaches its new objects.
  const second = program();
  relink(second, first);
  const newFactor = specializationId(u32, 11);
  attach(second, [[newFactor, 'src/a.sycl.ts#factor']]);
  expect(bindingOf(oldFactor)).toEqual({ symbolicId: 'src/a.sycl.ts#factor', program: second });
  expect(bindingOf(scale)?.program).toBe(second);
  expect(declarationOf(second, 'src/a.sycl.ts#scale')).toBe(scale);
  expect(latestDeclaration(oldFactor)).toBe(newFactor);
  expect(attachedPrograms()).toEqual([second]);
  expect(originOf(second)).toBe(first);

  // A second edit still reaches the objects of the first version.
  const third = program();
  relink(third, second);
  const newestFactor = specializationId(u32, 13);
  attach(third, [[newestFactor, 'src/a.sycl.ts#factor']]);
  expect(bindingOf(oldFactor)?.program).toBe(third);
  expect(bindingOf(newFactor)?.program).toBe(third);
  expect(latestDeclaration(oldFactor)).toBe(newestFactor);
  expect(originOf(third)).toBe(first);
});

test('without a relink, programs keep their own declarations', () => {
  const a = program();
  const b = program();
  const x = {};
  const y = {};
  attach(a, [[x, 'src/x.sycl.ts#x']]);
  attach(b, [[y, 'src/x.sycl.ts#x']]);
  expect(bindingOf(x)?.program).toBe(a);
  expect(latestDeclaration(x)).toBe(x);
  expect(latestDeclaration(y)).toBe(y);
  expect(originOf(b)).toBe(b);
});

test('a relink leaves the host objects of other programs alone', () => {
  // A program of a library built with syclts, and the dev server's program, in one page.
  const library = program();
  const libraryKernel = {};
  attach(library, [[libraryKernel, 'src/lib.sycl.ts#blur']]);
  const first = program();
  relink(first, undefined);
  const scale = {};
  attach(first, [[scale, 'src/a.sycl.ts#scale']]);
  expect(bindingOf(libraryKernel)?.program).toBe(library);

  const second = program();
  relink(second, first);
  expect(bindingOf(scale)?.program).toBe(second);
  expect(bindingOf(libraryKernel)?.program).toBe(library);
  expect(declarationOf(library, 'src/lib.sycl.ts#blur')).toBe(libraryKernel);
  expect(declarationOf(second, 'src/lib.sycl.ts#blur')).toBeUndefined();
  expect(originOf(second)).toBe(first);
  expect(originOf(library)).toBe(library);
  expect(attachedPrograms()).toContain(library);
  expect(attachedPrograms()).not.toContain(first);
});
