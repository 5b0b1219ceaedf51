/** Hydrates the form bench/lib/reference-page.ts rendered into index.html at bench time. */
import { createElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { SignInForm } from './sign-in-form';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
hydrateRoot(container, createElement(SignInForm));
