import CheckCircle from '@mui/icons-material/CheckCircle';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { passwordChecklist } from '@tc/contract/password-rules';
import { useTranslation } from 'react-i18next';

/** Live, informational checklist of Set new password; the server enforces the same rules. */
export function PasswordChecklist({ password, confirm }: { password: string; confirm: string }) {
  const { t } = useTranslation();
  return (
    <Box component="ul" aria-label={t('password.checklist')} sx={{ listStyle: 'none', p: 0 }}>
      {passwordChecklist(password, confirm).map((item) => (
        <Box
          component="li"
          key={item.id}
          data-met={item.met}
          sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}
        >
          {item.met ? (
            <CheckCircle fontSize="small" color="success" aria-hidden />
          ) : (
            <RadioButtonUnchecked fontSize="small" color="disabled" aria-hidden />
          )}
          <Typography variant="body2" color={item.met ? 'success.main' : 'text.secondary'}>
            {t(`password.check.${item.id}`)}
            <Box component="span" sx={visuallyHidden}>
              {' '}
              ({item.met ? t('password.met') : t('password.notMet')})
            </Box>
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
