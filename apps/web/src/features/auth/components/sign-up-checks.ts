import { isPasswordTheEmail } from '@tc/contract/password-rules';
import type { SignupRequest } from '@tc/contract/account';

/** Any control character (tab and line breaks too), or half a surrogate pair: not in a line. */
const NOT_IN_A_LINE = /[\p{Cc}\p{Cs}]/u;
/** The address pattern the contract's e-mail check (zod's) applies. */
const EMAIL =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export type SignUpField = 'fullName' | 'email' | 'password';

/**
 * What the sign-up request's schema would refuse, checked by hand so the page's script needs
 * no schema library: the fields refused, or the request as it is sent (the name trimmed, the
 * address trimmed and in lower case). The server checks the same, and the tenant's own
 * password rules.
 */
export function checkSignUp(form: {
  fullName: string;
  email: string;
  password: string;
}): { refused: SignUpField[] } | { request: SignupRequest } {
  const refused: SignUpField[] = [];
  const fullName = form.fullName.trim();
  const email = form.email.trim().toLowerCase();
  const { password } = form;
  if (NOT_IN_A_LINE.test(form.fullName) || fullName === '' || fullName.length > 200) {
    refused.push('fullName');
  }
  if (NOT_IN_A_LINE.test(form.email) || email.length > 254 || !EMAIL.test(email)) {
    refused.push('email');
  }
  if (
    NOT_IN_A_LINE.test(password) ||
    password === '' ||
    password.length > 256 ||
    isPasswordTheEmail(password, email)
  ) {
    refused.push('password');
  }
  return refused.length > 0 ? { refused } : { request: { fullName, email, password } };
}
