/**
 * The reference page's one screen: a sign-in form as small as React makes it. Written with
 * createElement rather than JSX so the repository's TypeScript settings (no `jsx` option for
 * bench/) check it as it is; the compiled output is the same calls JSX would become.
 */
import { createElement as h, useState, type FormEvent } from 'react';

export function SignInForm() {
  const [pending, setPending] = useState(false);
  // Without script the browser posts the form itself; with it, a second click waits.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (pending) event.preventDefault();
    else setPending(true);
  };
  return h(
    'main',
    { className: 'card' },
    h('h1', null, 'Sign in'),
    h(
      'form',
      { method: 'post', action: '/login', onSubmit },
      h('label', { htmlFor: 'email' }, 'E-mail'),
      h('input', {
        id: 'email',
        name: 'email',
        type: 'email',
        autoComplete: 'username',
        required: true,
      }),
      h('label', { htmlFor: 'password' }, 'Password'),
      h('input', {
        id: 'password',
        name: 'password',
        type: 'password',
        autoComplete: 'current-password',
        required: true,
      }),
      h(
        'label',
        { className: 'remember' },
        h('input', { type: 'checkbox', name: 'remember' }),
        'Keep me signed in',
      ),
      h('button', { type: 'submit', disabled: pending }, 'Sign in'),
    ),
    h('a', { href: '/forgot-password' }, 'Forgot your password?'),
  );
}
