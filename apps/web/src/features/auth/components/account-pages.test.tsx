import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderAuthPage } from '../../../test/auth-page';
import { loadEnglish } from '../../../test/render';
import { bodiesSentTo, server } from '../../../test/server';
import { signOut } from '../../../test/session';
import CheckEmailPage from './check-email-page';
import ForgotPasswordPage from './forgot-password-page';
import NewPasswordPage from './new-password-page';
import SignUpPage from './sign-up-page';
import VerifyEmailPage from './verify-email-page';

const problem = (status: number, code: string, fields?: Record<string, { code: string }>) =>
  HttpResponse.json({ type: 'about:blank', title: code, status, code, fields }, { status });

describe('sign-up page', { timeout: 30_000 }, () => {
  beforeAll(() => loadEnglish([]));
  beforeEach(() => signOut());

  it("shows a post's field refusals at their fields, its values kept", () => {
    renderAuthPage(<SignUpPage />, {
      page: 'signUp',
      url: '/signup',
      values: { fullName: 'Sam Signup', email: 'sam@demo.example' },
      error: {
        kind: 'problem',
        status: 400,
        code: 'request.invalid',
        fields: { repeat: { code: 'password.mismatch' }, terms: { code: 'terms.required' } },
      },
    });
    const form = screen.getByRole('button', { name: 'Sign up' }).closest('form')!;
    expect(form).toHaveAttribute('action', '/signup');
    expect(screen.getByLabelText('Full name')).toHaveValue('Sam Signup');
    expect(screen.getByLabelText('Email')).toHaveValue('sam@demo.example');
    const repeat = screen.getByLabelText('Repeat password');
    expect(repeat).toHaveAttribute('aria-invalid', 'true');
    expect(repeat).toHaveAccessibleDescription('Passwords do not match.');
    const terms = screen.getByRole('checkbox', { name: /terms of service/ });
    expect(terms).toHaveAccessibleDescription(
      'Please accept the terms of service and the privacy policy.',
    );
    // Said at the fields, not twice.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('checks before posting, then posts and says to check the inbox', async () => {
    server.use(http.post('/api/v1.0/auth/signup', () => new HttpResponse(null, { status: 202 })));
    const { user } = renderAuthPage(<SignUpPage />, { page: 'signUp', url: '/signup' });
    await user.type(screen.getByLabelText('Full name'), 'Sam Signup');
    await user.type(screen.getByLabelText('Email'), 'sam@demo.example');
    await user.type(screen.getByLabelText('Password'), 'Correct-horse-1!');
    await user.type(screen.getByLabelText('Repeat password'), 'Correct-horse-2!');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByLabelText('Repeat password')).toHaveAccessibleDescription(
      'Passwords do not match.',
    );
    expect(await bodiesSentTo('/api/v1.0/auth/signup')).toEqual([]);

    await user.clear(screen.getByLabelText('Repeat password'));
    await user.type(screen.getByLabelText('Repeat password'), 'Correct-horse-1!');
    await user.click(screen.getByRole('checkbox', { name: /terms of service/ }));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('sam@demo.example');
    expect(await bodiesSentTo('/api/v1.0/auth/signup')).toEqual([
      { fullName: 'Sam Signup', email: 'sam@demo.example', password: 'Correct-horse-1!' },
    ]);
  });

  it("shows the server's field refusal at its field, as after a post without script", async () => {
    server.use(
      http.post('/api/v1.0/auth/signup', () =>
        problem(409, 'user.email_taken', { email: { code: 'user.email_taken' } }),
      ),
    );
    const { user } = renderAuthPage(<SignUpPage />, { page: 'signUp', url: '/signup' });
    await user.type(screen.getByLabelText('Full name'), 'Sam Signup');
    await user.type(screen.getByLabelText('Email'), 'sam@demo.example');
    await user.type(screen.getByLabelText('Password'), 'Correct-horse-1!');
    await user.type(screen.getByLabelText('Repeat password'), 'Correct-horse-1!');
    await user.click(screen.getByRole('checkbox', { name: /terms of service/ }));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
        'A user with this e-mail address already exists.',
      ),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Full name')).toHaveValue('Sam Signup');
  });

  it('says a refusal that names no field above the form', async () => {
    server.use(http.post('/api/v1.0/auth/signup', () => problem(403, 'request.invalid')));
    const { user } = renderAuthPage(<SignUpPage />, { page: 'signUp', url: '/signup' });
    await user.type(screen.getByLabelText('Full name'), 'Sam Signup');
    await user.type(screen.getByLabelText('Email'), 'sam@demo.example');
    await user.type(screen.getByLabelText('Password'), 'Correct-horse-1!');
    await user.type(screen.getByLabelText('Repeat password'), 'Correct-horse-1!');
    await user.click(screen.getByRole('checkbox', { name: /terms of service/ }));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Sign-up failed: \S/);
  });

  it('says to check the inbox after a sign-up posted without script', () => {
    renderAuthPage(<SignUpPage />, {
      page: 'signUp',
      url: '/signup',
      notice: 'signedUp',
      values: { email: 'sam@demo.example' },
    });
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('sam@demo.example');
  });
});

describe('password pages', { timeout: 30_000 }, () => {
  beforeAll(() => loadEnglish([]));
  beforeEach(() => signOut());

  it('forgot password: sends the link, then opens Check your email with the address', async () => {
    server.use(
      http.post('/api/v1.0/auth/forgot-password', () => new HttpResponse(null, { status: 202 })),
    );
    const { user, context } = renderAuthPage(
      <ForgotPasswordPage />,
      { page: 'forgotPassword', url: '/forgotpassword?email=erin%40demo.example' },
      { search: 'email=erin%40demo.example' },
    );
    const field = screen.getByLabelText('Email');
    expect(field).toHaveValue('erin@demo.example');
    expect(field.closest('form')).toHaveAttribute('action', '/forgotpassword');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Reset email sent successfully.');
    await waitFor(
      () =>
        expect(context.navigate).toHaveBeenCalledWith('/checkemail', {
          state: { email: 'erin@demo.example' },
        }),
      { timeout: 4_000 },
    );
  });

  it("forgot password: shows a post's refusal as the script would", () => {
    renderAuthPage(<ForgotPasswordPage />, {
      page: 'forgotPassword',
      url: '/forgotpassword',
      values: { email: 'erin@demo.example' },
      error: { kind: 'problem', status: 429, code: 'email.invalid' },
    });
    expect(screen.getByLabelText('Email')).toHaveValue('erin@demo.example');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Error sending reset email: Enter a valid e-mail address.',
    );
  });

  it('check your email: the address from the page before or from the server', () => {
    renderAuthPage(
      <CheckEmailPage />,
      { page: 'checkEmail', url: '/checkemail' },
      { navigationState: { email: 'erin@demo.example' } },
    );
    expect(screen.getByText('We sent a password reset link to erin@demo.example')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open email app' })).toHaveAttribute(
      'href',
      'mailto:erin@demo.example',
    );
  });

  it('check your email: sends the link again to the address in the field', async () => {
    server.use(
      http.post('/api/v1.0/auth/forgot-password', () => new HttpResponse(null, { status: 202 })),
    );
    const { user } = renderAuthPage(<CheckEmailPage />, {
      page: 'checkEmail',
      url: '/checkemail',
      values: { email: 'erin@demo.example' },
    });
    expect(screen.getByLabelText('Email')).toHaveValue('erin@demo.example');
    await user.click(screen.getByRole('button', { name: 'Click to resend' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Reset email sent successfully.');
    expect(await bodiesSentTo('/api/v1.0/auth/forgot-password')).toEqual([
      { email: 'erin@demo.example' },
    ]);
  });

  it('new password: posts the token with the passwords; a mismatch is shown at its field', async () => {
    server.use(
      http.post('/api/v1.0/auth/reset-password', () => new HttpResponse(null, { status: 204 })),
    );
    const { user, context } = renderAuthPage(
      <NewPasswordPage />,
      {
        page: 'newPassword',
        url: '/newpassword',
        values: { token: 'token-1' },
        error: {
          kind: 'problem',
          status: 400,
          code: 'request.invalid',
          fields: { confirm: { code: 'password.mismatch' } },
        },
      },
      { search: '' },
    );
    const form = screen.getByRole('button', { name: 'Reset password' }).closest('form')!;
    expect(form).toHaveAttribute('action', '/newpassword');
    expect(new FormData(form).get('token')).toBe('token-1');
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription(
      'Passwords do not match.',
    );

    await user.type(screen.getByLabelText('Password'), 'Correct-horse-1!');
    await user.type(screen.getByLabelText('Confirm password'), 'Correct-horse-1!');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(context.navigate).toHaveBeenCalledWith('/passwordreset'));
    expect(await bodiesSentTo('/api/v1.0/auth/reset-password')).toEqual([
      { token: 'token-1', password: 'Correct-horse-1!' },
    ]);
  });

  it('verify e-mail: verifies once the page runs and says whose address it was', async () => {
    server.use(
      http.post('/api/v1.0/auth/verify-email', () =>
        HttpResponse.json({ data: { email: 'sam@demo.example' } }),
      ),
    );
    renderAuthPage(
      <VerifyEmailPage />,
      { page: 'verifyEmail', url: '/verifyemail?token=t-1' },
      { search: 'token=t-1' },
    );
    expect(screen.getByRole('progressbar', { name: 'Verifying your email...' })).toBeVisible();
    expect(await screen.findByRole('status')).toHaveTextContent('sam@demo.example');
    expect(await bodiesSentTo('/api/v1.0/auth/verify-email')).toEqual([{ token: 't-1' }]);
  });
});
