import { signupRequestSchema } from '@tc/contract/account';
import { describe, expect, it } from 'vitest';
import { checkSignUp } from './sign-up-checks';

/** The fields the contract's schema refuses, for comparing with the hand-written checks. */
function schemaRefuses(form: { fullName: string; email: string; password: string }) {
  const parsed = signupRequestSchema.safeParse(form);
  if (parsed.success) return { request: parsed.data };
  return { refused: [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))] };
}

const forms = [
  { fullName: '  Sam Signup ', email: ' Sam@Demo.Example ', password: 'Correct-horse-1!' },
  { fullName: '   ', email: 'sam@demo.example', password: 'Correct-horse-1!' },
  { fullName: 'Sam\nSignup', email: 'sam@demo', password: 'x' },
  { fullName: 'Sam', email: 'sam..x@demo.example', password: '' },
  { fullName: 'Sam', email: 'sam@demo.example', password: ' SAM@demo.example ' },
  { fullName: 'x'.repeat(201), email: `${'a'.repeat(250)}@x.io`, password: 'p\tq' },
];

describe('sign-up checks before posting', () => {
  it.each(forms)('refuses what the contract refuses and sends what it sends (%#)', (form) => {
    const checked = checkSignUp(form);
    const expected = schemaRefuses(form);
    if (expected.refused) {
      const refused = 'refused' in checked ? [...checked.refused].sort() : [];
      expect(refused).toEqual([...expected.refused].sort());
    } else expect(checked).toEqual(expected);
  });
});
