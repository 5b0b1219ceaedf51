import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthPage } from '../auth-page-context';
import { LanguageLinks } from './language-links';
import './auth.css';

/**
 * The frame of every sign-in screen: the languages in the header, the tenant's logo and name,
 * one h1, the screen's content in a card, a footer. The tenant is the page state's (the
 * server's), so the markup is the same before and after the script takes over.
 */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const tenant = useAuthPage().state.tenant;
  return (
    <div className="auth-page">
      <header className="auth-header">
        <LanguageLinks />
      </header>
      <main className="auth-main">
        <div className="auth-card">
          <div className="auth-tenant">
            {tenant?.logoUrl ? (
              <img
                className="auth-logo"
                src={tenant.logoUrl}
                alt={t('auth.tenantLogo', { name: tenant.name })}
              />
            ) : null}
            <p className="auth-tenant-name" data-testid="tenant-name">
              {tenant?.name}
            </p>
          </div>
          <h1 className="auth-title">{title}</h1>
          {children}
        </div>
      </main>
      <footer className="auth-footer">
        <p>{t('auth.copyright', { year: new Date().getFullYear() })}</p>
      </footer>
    </div>
  );
}
