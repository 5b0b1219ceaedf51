import Typography from '@mui/material/Typography';

/** Placeholder until the tenants screen is built on the shared list page. */
export default function TenantsPage() {
  return (
    <Typography component="h1" variant="h4">
      Tenants
    </Typography>
  );
}
