import TranslateIcon from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

const LanguageMenuList = lazy(() => import('./language-menu-list'));

/** Language choice; i18next keeps it in localStorage and sets the html lang attribute. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = i18n.resolvedLanguage ?? 'en';
  return (
    <>
      <Button
        size="small"
        color="inherit"
        startIcon={<TranslateIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-label={t('language.label', { language: t(`language.${current}`) })}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {current.toUpperCase()}
      </Button>
      {anchor ? (
        <Suspense fallback={null}>
          <LanguageMenuList anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
