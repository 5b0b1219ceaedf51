import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** An onboarding step (spec §2 "Onboarding"); its content comes in a later issue. */
export default function OnboardingPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ p: 4 }}>
      <Typography component="h1" variant="h4">
        {t(title)}
      </Typography>
    </Box>
  );
}
