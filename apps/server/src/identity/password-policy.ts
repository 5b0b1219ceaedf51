import { eq } from 'drizzle-orm';
import { hasPasswordSpecial, isPasswordTheEmail } from '@tc/contract/account';
import type { CodedProblem } from '@tc/contract/problem-codes';
import type { PasswordRules } from '@tc/contract/security';
import type { Database } from '../db/database';
import { tenants } from '../db/schema/tenants';
import { badRequest, notFound } from '../http/problem';

/** A tenant that never changed its policy: what the migration's column defaults say. */
export const DEFAULT_PASSWORD_RULES: PasswordRules = {
  passwordMinLength: 8,
  passwordRequireSpecial: true,
  passwordRefuseCommon: true,
};

/** Parts of the user's e-mail and name shorter than this are too common to refuse. */
const PERSONAL_MIN = 3;

export interface PasswordPolicyInput {
  tenantId: string;
  password: string;
  /** The account's address; its local part may not appear in the password. */
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  /** The request field the password came in, named in the 400; `password` unless said. */
  field?: string;
}

let commonPasswords: Promise<ReadonlySet<string>> | undefined;

/**
 * The common-password list (about 49,000 entries, all lower case), read once on first use:
 * most processes never set a password, so it is not loaded at start-up.
 */
function commonPasswordList(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  );
  return commonPasswords;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswordList()).has(password.toLowerCase());
}

/** The e-mail's local part and each word of the names, lower case, long enough to count. */
function personalParts(input: Pick<PasswordPolicyInput, 'email' | 'firstName' | 'lastName'>) {
  const localPart = input.email.slice(0, Math.max(0, input.email.lastIndexOf('@')));
  const names = [input.firstName ?? '', input.lastName ?? ''];
  return [localPart, ...names, ...names.flatMap((name) => name.split(/[\s-]+/))]
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part.length >= PERSONAL_MIN);
}

/**
 * What the rules refuse in this password, if anything: the first broken rule, in the order
 * the console's checklist names them. Pure, apart from the lazily loaded common list.
 */
export async function passwordProblem(
  rules: PasswordRules,
  input: Omit<PasswordPolicyInput, 'tenantId' | 'field'>,
): Promise<CodedProblem | undefined> {
  const { password } = input;
  if (password.length < rules.passwordMinLength) {
    return { code: 'password.too_short', params: { minimum: rules.passwordMinLength } };
  }
  if (rules.passwordRequireSpecial && !hasPasswordSpecial(password)) {
    return { code: 'password.needs_special' };
  }
  // The address itself is refused whatever the policy, as the sign-up form always did.
  if (isPasswordTheEmail(password, input.email)) return { code: 'password.is_email' };
  if (!rules.passwordRefuseCommon) return undefined;
  if (await isCommonPassword(password)) return { code: 'password.common' };
  const lower = password.toLowerCase();
  if (personalParts(input).some((part) => lower.includes(part))) {
    return { code: 'password.contains_personal' };
  }
  return undefined;
}

/** The tenant's password rules; they are public (the sign-in page shows them). */
export async function passwordRulesOf(db: Database, tenantId: string): Promise<PasswordRules> {
  const [row] = await db
    .select({
      passwordMinLength: tenants.passwordMinLength,
      passwordRequireSpecial: tenants.passwordRequireSpecial,
      passwordRefuseCommon: tenants.passwordRefuseCommon,
    })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  if (!row) throw notFound('tenant.not_found');
  return row;
}

/**
 * Checks a new password against its tenant's policy, wherever a password is set (reset,
 * invitation, sign-up, change). A refusal is the 400 of a field problem on `field`, so the
 * console shows it under the password input as it shows the request schema's own refusals.
 */
export async function checkPasswordPolicy(db: Database, input: PasswordPolicyInput) {
  const problem = await passwordProblem(await passwordRulesOf(db, input.tenantId), input);
  if (problem) {
    throw badRequest(problem.code, problem.params, { [input.field ?? 'password']: problem });
  }
}
