import Typography from '@mui/material/Typography';

/** Placeholder until the projects screen is built on the shared list page. */
export default function ProjectsPage() {
  return (
    <Typography component="h1" variant="h4">
      Projects
    </Typography>
  );
}
