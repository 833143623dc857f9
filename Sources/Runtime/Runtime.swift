import Scanning
