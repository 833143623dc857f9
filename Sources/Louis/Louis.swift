import CLouis
