import Typography from '@mui/material/Typography';

/** Placeholder until the users screen is built on the shared list page. */
export default function UsersPage() {
  return (
    <Typography component="h1" variant="h4">
      Users
    </Typography>
  );
}
