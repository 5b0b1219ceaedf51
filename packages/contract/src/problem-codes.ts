/**
 * Every problem the server can answer, by stable machine code, with its English text.
 *
 * A problem answer carries the code and its parameters beside the English `detail`; the
 * console translates the code (locales/problems/<language>.json) instead of matching English
 * sentences. Request schemas in this package use the codes as their messages, so a field
 * error found by the console's own form validation and one found by the server read alike.
 *
 * An entry is one text, or `{ one, other }` when it depends on the parameter `count`
 * (i18next's plural keys `<code>_one` and `<code>_other`). `{{name}}` takes a parameter.
 */
export const PROBLEM_TEXTS = {
  // Requests the server could not take as they came.
  'request.invalid': 'Some values are not valid.',
  'request.route_not_found': 'There is no {{method}} {{path}}.',
  'request.address_invalid': 'This address is not valid.',
  'request.address_too_long': 'A part of this address is too long.',
  'request.too_many': {
    one: 'Too many requests. Try again in {{count}} second.',
    other: 'Too many requests. Try again in {{count}} seconds.',
  },
  'request.failed': 'Something went wrong on our side. Please try again.',
  'request.refused': 'This request cannot be processed.',
  'form.cross_site':
    'This form was sent from another site, or it has expired. Nothing was done: check the form and send it again from this page.',
  'service.database_unreachable': 'The database is not reachable.',
  'service.console_not_built':
    'The web console is not built. Run `npm run build` and restart the server.',
  'service.live_updates_unavailable': 'Live updates are not available right now. Try again later.',

  // Fields: the generic ones answer what a schema did not word itself.
  'field.invalid': 'Not valid.',
  'field.required': 'This value is required.',
  'field.unknown': 'This field is not expected.',
  'text.control_in_line': 'Remove line breaks, tabs and control characters.',
  'text.control_in_text': 'Remove the control characters from this text.',
  'text.invalid_character': 'This text contains a character that is not valid.',
  'text.too_long': 'Use at most {{maximum}} characters.',
  'name.required': 'Enter a name.',
  'name.too_long': 'The name can be at most {{maximum}} characters long.',
  'id.invalid': 'must be an id',
  'id.not_valid': 'Not a valid id.',

  // Sign-in, tokens and access.
  'auth.sign_in_required': 'Sign in to continue.',
  'auth.session_invalid': 'Your session has expired or is not valid. Sign in again.',
  'auth.forbidden': 'You do not have permission to do this.',
  'auth.permission_required': 'You need the permission "{{permission}}" to do this.',
  'auth.super_admin_only': 'Only super administrators manage tenants.',
  'auth.super_admin_not_tenant': 'Super administrators manage tenants, not tenant data.',
  'auth.reverification_required':
    'Confirm it is you: enter your password or a code again before changing your sign-in security.',

  // Nobody grants what they do not hold.
  'grant.role_not_held':
    'The role "{{role}}" would grant {{permissions}}, which you do not hold. You can only give permissions you have yourself.',
  'grant.permission_not_held':
    'Giving {{permissions}} to roles needs you to hold it: you can only give permissions you have yourself.',
  'grant.user_role_not_held':
    "This user's role grants {{permissions}}, which you do not hold: only someone who holds them can change this account.",
  'grant.admin_role_give': 'Giving the {{role}} role is for administrators holding it only.',
  'grant.admin_role_edit': 'Editing the {{role}} role is for administrators holding it only.',
  'grant.admin_account_change':
    'Changing an account with the {{role}} role is for administrators holding it only.',
  'grant.own_role_change':
    'Changing your own role is for administrators holding the {{role}} role only.',
  'grant.client_trust':
    'Making an application first-party or allowing it the console API needs every permission its tokens could carry; you do not hold {{permissions}}.',
  'grant.trusted_client_change':
    'Changing the addresses, grants or secret of an application that is first-party or may call the console API needs every permission its tokens could carry; you do not hold {{permissions}}.',

  // Accounts: sign-up, links, passwords, Google.
  'password.required': 'Enter a password.',
  'password.too_short': 'Must be at least {{minimum}} characters',
  'password.too_long': 'The password can be at most 256 characters long.',
  'password.needs_special': 'Must contain one special character',
  'password.is_email': 'The password must not be your e-mail address.',
  'password.common': 'This password is too common. Choose one that is harder to guess.',
  'password.contains_personal': 'The password must not contain your e-mail address or name.',
  'email.required': 'Enter an e-mail address.',
  'email.too_long': 'The e-mail address can be at most 254 characters long.',
  'email.invalid': 'Enter a valid e-mail address.',
  'link.malformed': 'This link is not valid.',
  'link.invalid': 'This link has expired or was already used. Ask for a new one.',
  'full_name.required': 'Enter your full name.',
  // Checked by the sign-up and new-password pages before posting, and by the server when
  // those forms are posted without script.
  'password.mismatch': 'Passwords do not match.',
  'terms.required': 'Please accept the terms of service and the privacy policy.',
  'signup.closed': 'Sign-up is not open for this tenant.',
  'account.mail_too_many': {
    one: 'Too many requests for this address. Try again in {{count}} minute(s).',
    other: 'Too many requests for this address. Try again in {{count}} minute(s).',
  },
  'account.password_already_set':
    'This user has already set a password; they can reset it instead.',
  'google.credential_required': 'Send the Google credential.',
  'google.credential_too_long': 'The Google credential is too long.',
  'google.not_configured': 'Google sign-in is not configured.',
  'google.sign_in_failed': 'Google Sign-In failed. Please try again.',
  'google.no_new_members': 'This tenant does not accept new members. Ask an administrator.',
  'google.super_admin': 'Super administrators sign in with their e-mail address and password.',
  'google.no_account':
    'There is no account for {{email}} in this tenant, and it does not allow sign-up. Ask an administrator to invite you.',
  'google.account_disabled':
    'Account disabled. Ask an administrator of this tenant to enable it again.',
  'google.second_factor_required':
    'This account signs in with a second factor: use the sign-in page.',

  // Tenants.
  'tenant.not_found': 'This tenant does not exist.',
  'tenant.unknown_address': 'No tenant is registered for this address.',
  'tenant.exists': 'This tenant already exists.',
  'tenant.name_taken': 'A tenant with this name already exists.',
  'tenant.domain_taken': 'A tenant with this domain already exists.',
  'tenant.domain_is_console': 'This is the console’s own address; choose another domain.',
  'tenant.name_too_long': 'The name can be at most 63 characters long.',
  'tenant.name_pattern':
    'Use 2 to 63 letters, digits, hyphens or underscores, starting with a letter or digit.',
  'tenant.name_reserved': 'This name is reserved.',
  'tenant.domain_required': 'Enter a domain.',
  'tenant.domain_too_long': 'The domain can be at most 253 characters long.',
  'tenant.domain_pattern': 'Enter a host name such as acme.example.com.',

  // Users.
  'user.not_found': 'There is no such user.',
  'user.email_taken': 'A user with this e-mail address already exists.',
  'user.email_in_use': 'This e-mail address is already in use.',
  'user.cannot_deactivate_yourself': 'You cannot deactivate yourself.',
  'user.first_name_required': 'Enter a first name.',
  'user.first_name_too_long': 'The first name can be at most 100 characters long.',
  'user.last_name_required': 'Enter a last name.',
  'user.last_name_too_long': 'The last name can be at most 100 characters long.',
  'user.role_required': 'Choose a role.',
  'user.role_id_invalid': 'Not a valid role id.',
  'user.cannot_deactivate_self': 'You cannot deactivate your own account.',
  'user.cannot_delete_self': 'You cannot delete your own account.',
  'user.not_in_tenant': 'Choose people of this tenant.',
  'user.unknown': 'Unknown user.',

  // Roles and permissions.
  'role.not_found': 'This role does not exist.',
  'role.name_taken': 'A role with this name already exists.',
  'role.not_in_tenant': 'Choose a role of this tenant.',
  'roles.not_in_tenant': 'Choose roles of this tenant.',
  'role.unknown': 'Unknown role.',
  'role.just_given': 'This role was just given to a user. Give them another role first.',
  'role.held_by_users': {
    one: 'This role is held by {{count}} user. Give them another role first.',
    other: 'This role is held by {{count}} users. Give them another role first.',
  },
  'role.built_in_renamed': 'The built-in role {{name}} cannot be renamed.',
  'role.built_in_deactivated': 'The built-in role {{name}} cannot be deactivated.',
  'role.built_in_changed': 'The built-in role {{name}} cannot be changed this way.',
  'role.built_in_deleted': 'The built-in role {{name}} cannot be deleted.',
  'role.admin_keeps_system_permissions': 'The Admin role always holds the system permissions.',
  'role.admin_keeps_permissions':
    'The Admin role always holds all its permissions; they cannot be changed.',
  'roles.at_least_one': 'Choose at least one role.',
  'roles.too_many': 'Choose at most {{maximum}} roles.',
  'permissions.too_many': 'Choose at most {{maximum}} permissions.',
  'permissions.not_in_tenant': 'Choose permissions of this tenant.',
  'permission.unknown': 'Unknown permission.',
  'permission.not_found': 'This permission does not exist.',
  'permission.name_taken': 'A permission with this name already exists.',
  'permission.name_pattern': 'Use letters, digits and : _ - . only, e.g. reports:export.',
  'permission.system_renamed': 'System permissions cannot be renamed.',
  'permission.system_changed': 'The system permission {{name}} cannot be changed this way.',
  'permission.system_deleted': 'The system permission {{name}} cannot be deleted.',
  'permission.not_in_tenant': 'Choose a permission of this tenant.',

  // Projects and files.
  'project.not_found': 'This project does not exist.',
  'project.number_taken': 'Another project already has this number.',
  'project.number_used': 'This project number is already used.',
  'project.number_required': 'Enter a project number.',
  'project.budget_format':
    'Enter an amount with at most 14 digits and 2 decimals, like 1250000.50.',
  'project.budget_as_string':
    'Enter an amount with at most 14 digits and 2 decimals, like 1250000.50. Send it as a string.',
  'project.budget_negative': 'The budget cannot be negative.',
  'project.country_invalid': 'Choose a country (ISO 3166-1 code).',
  'project.country_code': 'Use a two-letter code.',
  'project.owner_not_in_tenant': 'Choose a user of this tenant.',
  'project.people_not_in_tenant': 'Choose users of this tenant.',
  'project.people_too_many': 'Assign at most {{maximum}} people.',
  'file.not_found': 'This file does not exist.',
  'image.too_large': 'The image is larger than 2 MB.',
  'image.unsupported': 'Upload a PNG, JPEG, WebP or GIF image.',
  'image.unsupported_body': 'Upload a PNG, JPEG, WebP or GIF image as the request body.',

  // Applications: the OAuth / OpenID Connect clients of a tenant.
  'client.not_found': 'This application does not exist.',
  'client.id_required': 'Enter a client ID.',
  'client.id_pattern': 'Use letters, digits and . _ ~ - only.',
  'client.id_taken': 'Another application already has this client ID.',
  'client.type_invalid': 'Choose public or confidential.',
  'client.grant_type_invalid':
    'Choose authorization_code, refresh_token, client_credentials or password.',
  'client.grant_required': 'Choose at least one grant type.',
  'client.algorithm_invalid': 'Choose RS256 or ES256.',
  'client.uris_too_many': 'Enter at most {{maximum}} addresses.',
  'client.uri_wildcard': 'Wildcards (*) are not allowed: enter each address in full.',
  'client.redirect_uri_invalid':
    'Enter an absolute address, such as https://app.example.com/callback.',
  'client.redirect_uri_fragment': 'A redirect address cannot have a fragment (#).',
  'client.redirect_uri_scheme':
    'Use https, http on localhost, or an app scheme such as com.example.app:/callback.',
  'client.origin_invalid': 'Enter an origin only, such as https://app.example.com.',
  'client.origin_scheme': 'Use https, or http on localhost.',
  'client.grant_needs_confidential': 'Only confidential applications can use client_credentials.',
  'client.refresh_needs_grant': 'refresh_token needs authorization_code or password as well.',
  'client.grant_needs_redirect': 'authorization_code needs at least one redirect address.',
  'client.service_roles_need_grant': 'Service roles need the client_credentials grant.',
  'client.built_in_deleted': 'The built-in application {{clientId}} cannot be deleted.',
  'client.built_in_changed':
    'The built-in application {{clientId}} is the console itself: only its name can be changed.',
  'client.secret_public': 'A public application has no secret.',

  // Webhooks.
  'webhook.not_found': 'This webhook does not exist.',
  'webhook.delivery_not_found': 'This delivery does not exist.',
  'webhook.url_invalid': 'Enter a full address, such as https://example.com/hooks.',
  'webhook.url_scheme': 'Use an http or https address.',
  'webhook.url_credentials': 'The address cannot contain a user name or password.',
  'webhook.url_private':
    'This address leads to a private, loopback or link-local network, which webhooks may not reach.',
  'webhook.event_type_invalid': 'Choose event types from the list.',
  'webhook.event_types_required': 'Choose at least one event type.',
  'webhook.event_types_forbidden':
    'You cannot subscribe to {{eventTypes}}: their events carry what you may not read.',

  // The tenant's settings.
  'policy.min_length_range': 'Choose a minimum length from 8 to 128 characters.',

  // Audit, onboarding, assistant.
  'audit.action_invalid': 'Choose create, update or delete.',
  'audit.actor_invalid': 'Not a valid user id.',
  'audit.time_invalid': 'Enter a date and time such as 2026-11-26T00:00:00Z.',
  'audit.range_reversed': 'The end of the range must not be before its start.',
  'onboarding.permissions_required':
    'You need the permissions {{permissions}} to set up the tenant.',
  'onboarding.step_invalid': 'Choose a step of the onboarding.',
  'assistant.not_configured': 'The assistant is not configured on this server.',
  'assistant.too_many_messages': {
    one: 'You have sent too many messages. Try again in {{count}} second.',
    other: 'You have sent too many messages. Try again in {{count}} seconds.',
  },
  'assistant.role_invalid': 'The role is user or assistant.',
  'assistant.message_required': 'Enter a message.',
  'assistant.message_too_long': 'A message can be at most {{maximum}} characters long.',
  'assistant.chat_too_long': 'Send at most {{maximum}} messages; start a new chat.',
  'assistant.last_message_yours': 'The last message must be yours.',

  // The signed-in user's account: profile, password, second factors, sessions.
  'account.locale_invalid': 'Choose English, German, French or Italian, or follow the browser.',
  'account.current_password_required': 'Enter your current password.',
  'account.current_password_wrong': 'This is not your current password.',
  'account.locked': 'Too many wrong attempts. Wait a few minutes and try again.',
  'account.proof_required': 'Enter your password, a code or use a passkey: one of them.',
  'mfa.code_required': 'Enter the code.',
  'mfa.code_invalid': 'This is not a valid code.',
  'mfa.code_wrong': 'This code is not right. Enter the code your app shows now.',
  'mfa.totp_exists': 'An authenticator app is already set up. Remove it to set up another.',
  'mfa.totp_missing': 'No authenticator app is set up.',
  'mfa.recovery_codes_need_totp':
    'Recovery codes come with an authenticator app: set one up first.',
  'mfa.last_factor_required':
    'Your tenant requires a second factor: add another one before removing this one.',
  'passkey.name_required': 'Enter a name for the passkey.',
  'passkey.name_too_long': 'The name can be at most {{maximum}} characters long.',
  'passkey.wrong_address':
    'Passkeys are added on the tenant’s own address, {{domain}}. Open the console there.',
  'passkey.request_expired': 'The passkey request has expired or was already used. Try again.',
  'passkey.not_verified': 'The passkey could not be verified. Try again.',
  'passkey.already_registered': 'This passkey is already registered.',
  'passkey.not_found': 'There is no such passkey.',
  'session.not_found': 'There is no such session.',
  'consent.not_found': 'You have not allowed this application.',

  // Importing users from a CSV file.
  'user_import.not_found': 'This import does not exist.',
  'user_import.body_not_csv': 'Upload the file as the request body with the type text/csv.',
  'user_import.not_csv':
    'This is not a readable CSV file (line {{line}}). Save it as CSV and upload it again.',
  'user_import.not_utf8': 'The file is not UTF-8 text. Save it as “CSV UTF-8” and upload it again.',
  'user_import.too_many_columns': 'The file has more than {{maximum}} columns (line {{line}}).',
  'user_import.line_too_long': 'Line {{line}} is longer than {{maximum}} characters.',
  'user_import.file_too_large': 'The file is larger than {{maximum}} MB.',
  'user_import.too_many_rows': 'The file has more than {{maximum}} rows.',
  'user_import.empty_file': 'The file is empty.',
  'user_import.header_missing':
    'The first line must name the columns, for example: first name, last name, e-mail, role.',
  'user_import.no_rows': 'The file has a header but no rows.',
  'user_import.column_invalid': 'Choose a column of the file.',
  'user_import.column_required': 'Choose the column of this field.',
  'user_import.column_twice': 'Each column can give one field only.',
  'user_import.already_applied': 'This import has been applied; its columns can no longer change.',
  'user_import.not_checked': 'Choose the columns before applying the import.',
  'user_import.email_duplicate': 'This e-mail address is already on line {{line}} of the file.',
  'user_import.email_exists': 'A user with this e-mail address already exists.',
  'user_import.role_required': 'Enter a role.',
  'user_import.role_unknown': 'There is no role “{{role}}”.',
  'user_import.status_invalid': 'The status is active or inactive.',
} as const satisfies Record<string, string | { one: string; other: string }>;

export type ProblemCode = keyof typeof PROBLEM_TEXTS;
export type ProblemParams = Record<string, string | number>;
/** A problem as data: what went wrong and the values its text needs. */
export interface CodedProblem {
  code: ProblemCode;
  params?: ProblemParams;
}

export const PROBLEM_CODES = Object.keys(PROBLEM_TEXTS) as ProblemCode[];

export const isProblemCode = (value: unknown): value is ProblemCode =>
  typeof value === 'string' && Object.hasOwn(PROBLEM_TEXTS, value);

/** The English text of a problem, its parameters filled in. */
export function problemText(code: ProblemCode, params: ProblemParams = {}): string {
  const entry: string | { one: string; other: string } = PROBLEM_TEXTS[code];
  const template = typeof entry === 'string' ? entry : params.count === 1 ? entry.one : entry.other;
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
